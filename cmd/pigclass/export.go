package main

import (
	"errors"
	"strings"

	"pigclass/server/report"
	"pigclass/server/store"
)

func runExport(e env, args []string) error {
	fs := newFlags(e, "export", "--class CODE --what decisions|matches|match_players|students|strategies|tournament|experiments [--db FILE] [--real-names]")
	db := fs.String("db", envOr(e, "PIGCLASS_DB", "./pigclass.db"), "SQLite database file, or a district's postgres:// database (env PIGCLASS_DB)")
	class := fs.String("class", "", "the class's join code")
	what := fs.String("what", "decisions", "the file: "+report.ExportNames)
	real := fs.Bool("real-names", false, "real nicknames even in anonymous mode")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *class == "" {
		return usagef("export: give --class, the join code of the class")
	}
	if !strings.Contains(report.ExportNames, *what) || strings.Contains(*what, ",") || *what == "" {
		return usagef("export: --what %q: choose one of %s", *what, report.ExportNames)
	}
	st, err := store.Open(e.ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	err = report.ExportClass(e.ctx, st, strings.NewReplacer("-", "", " ", "").Replace(strings.ToUpper(*class)), *what, *real, e.stdout)
	if errors.Is(err, store.ErrNotFound) {
		return usagef("export: no class has the code %s in %s", *class, *db)
	}
	return err
}
