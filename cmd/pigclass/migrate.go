package main

import (
	"fmt"

	"pigclass/server/store"
)

// runMigrate moves a school's SQLite file into a district's Postgres
// database (store.Move): all of it or nothing.
func runMigrate(e env, args []string) error {
	fs := newFlags(e, "migrate", "--from FILE.db --to postgres://...")
	from := fs.String("from", "", "the school's SQLite file (stop its server first: what it writes after the copy would be left behind)")
	to := fs.String("to", e.getenv("PIGCLASS_DB"), "the district's database, a postgres:// URL (env PIGCLASS_DB)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *from == "" || store.IsPostgres(*from) {
		return usagef("migrate: --from: name the school's SQLite file, for example --from pigclass.db")
	}
	if !store.IsPostgres(*to) {
		return usagef("migrate: --to: name the district's database as a postgres:// URL, for example --to postgres://pigclass@db.district.example/pigclass")
	}
	rep, err := store.Move(e.ctx, *from, *to)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "moved %s into %s: %d classes, %d students, %d matches, %d events\n", *from, store.Redacted(*to), rep.Classes, rep.Students, rep.Matches, rep.Events)
	fmt.Fprintf(e.stdout, "projector links and rejoin codes are made with the server's key: under the district's key (--key) they change, so print them again from each class's dashboard; records downloaded before the move still verify, signed with the school's key (%s.key)\n", *from)
	return nil
}
