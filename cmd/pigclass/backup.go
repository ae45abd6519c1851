package main

import (
	"fmt"

	"pigclass/server/store"
)

func runBackup(e env, args []string) error {
	fs := newFlags(e, "backup", "--db FILE --to NEWFILE")
	db := fs.String("db", envOr(e, "PIGCLASS_DB", "./pigclass.db"), "the database to copy (env PIGCLASS_DB): a SQLite file, or a district's postgres:// database (copied with Postgres's pg_dump); the server may be running on it")
	to := fs.String("to", "", "the new file to write the copy to (it must not exist)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *to == "" {
		return usagef("backup: --to: name the new file for the copy, for example --to pigclass-2026-11-30.db")
	}
	if store.IsPostgres(*db) {
		tables, err := store.DumpPostgres(e.ctx, *db, *to)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "copied %s to %s with pg_dump (its custom format, %d tables with their rows); restore it with pg_restore --dbname URL %s\n", store.Redacted(*db), *to, tables, *to)
		return nil
	}
	classes, events, err := store.Backup(e.ctx, *db, *to)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "copied %s to %s: %d classes, %d events; the copy checks out\n", *db, *to, classes, events)
	return nil
}
