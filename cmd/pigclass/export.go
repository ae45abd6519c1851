package main

import (
	"errors"
	"strings"

	"pigclass/server"
	"pigclass/server/store"
)

func runExport(e env, args []string) error {
	fs := newFlags(e, "export", "--class CODE --what decisions|matches|match_players|students [--db FILE] [--real-names]")
	db := fs.String("db", envOr(e, "PIGCLASS_DB", "./pigclass.db"), "SQLite database file (env PIGCLASS_DB)")
	class := fs.String("class", "", "the class's join code")
	what := fs.String("what", "decisions", "the file: "+server.ExportNames)
	real := fs.Bool("real-names", false, "real nicknames even in anonymous mode")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *class == "" {
		return usagef("export: give --class, the join code of the class")
	}
	if !strings.Contains(server.ExportNames, *what) || strings.Contains(*what, ",") || *what == "" {
		return usagef("export: --what %q: choose one of %s", *what, server.ExportNames)
	}
	st, err := store.Open(e.ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	err = server.Export(e.ctx, st, *class, *what, *real, e.stdout)
	if errors.Is(err, store.ErrNotFound) {
		return usagef("export: no class has the code %s in %s", *class, *db)
	}
	return err
}
