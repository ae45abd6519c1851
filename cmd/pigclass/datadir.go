package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// dbFile is the database's file name wherever it lives.
const dbFile = "pigclass.db"

// dataPlace is where a classroom start keeps its database, and why there.
type dataPlace struct {
	db  string // the file's absolute path
	why string // "given", "beside", "working" or "config"
}

// chooseData finds the database of a classroom start (no --db): an
// existing pigclass.db beside the program, else one in the working
// folder (where pigclass before issue 78 made it: a class kept there is
// not lost), else the folder the system keeps for a user's application
// data (os.UserConfigDir: %AppData%\pigclass on Windows,
// ~/Library/Application Support/pigclass on macOS, ~/.config/pigclass
// on Linux), made if missing. The file beside the program wins over the
// working folder's: a double-click's working folder is anyone's guess,
// the program's folder is where the teacher put it.
func chooseData(executable, workdir, configDir string) (dataPlace, error) {
	for _, c := range []struct{ dir, why string }{{executable, "beside"}, {workdir, "working"}} {
		if c.dir == "" {
			continue
		}
		p := filepath.Join(c.dir, dbFile)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return dataPlace{db: p, why: c.why}, nil
		}
	}
	if configDir == "" {
		return dataPlace{}, errors.New("this computer names no folder for a user's application data (HOME, or XDG_CONFIG_HOME, AppData on Windows, is not set): say where the database goes with --db")
	}
	dir := filepath.Join(configDir, "pigclass")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return dataPlace{}, fmt.Errorf("making the folder for pigclass's data: %w; say where the database goes with --db", err)
	}
	return dataPlace{db: filepath.Join(dir, dbFile), why: "config"}, nil
}

// dataFolders are the folders chooseData looks in on this computer: the
// program's own (its link followed), the working folder, and the
// system's folder for application data ("" where there is none).
func dataFolders() (executable, workdir, configDir string) {
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		executable = filepath.Dir(exe)
	}
	workdir, _ = os.Getwd()
	configDir, _ = os.UserConfigDir()
	return executable, workdir, configDir
}
