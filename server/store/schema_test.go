package store

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"pigclass/server/store/pgtest"
)

// pgTypes is how each SQLite column type is written in Postgres's schema
// (migrations/postgres/0001_schema.sql says why): SQLite's INTEGER is 64
// bits, an id or a count a BIGINT or an INTEGER; REAL a DOUBLE PRECISION.
var pgTypes = map[string][]string{
	"INTEGER": {"bigint", "integer"},
	"TEXT":    {"text"},
	"REAL":    {"double precision"},
	"BLOB":    {"bytea"},
}

// engineOwn are the tables one engine has and the other has not, each
// for a reason: Postgres's leases and key (a district's; a SQLite file
// has one server, its key beside it), SQLite's own bookkeeping.
var engineOwn = map[string]bool{"class_leases": true, "district_key": true, "sqlite_sequence": true}

// schema is what the comparison reads of a database: each table's
// columns, its primary key, its foreign keys and its indexes, written as
// text that reads the same from both engines.
type schema map[string][]string // table -> sorted lines

// TestTheEnginesHaveOneSchema opens a SQLite file and a Postgres schema,
// each migrated as a server opens it, and compares their tables, columns
// (type by pgTypes, NOT NULL), primary keys, foreign keys and indexes
// (their columns and uniqueness; partial indexes' conditions are not
// compared): a column added to SQLite's migrations and forgotten in
// Postgres's schema fails here, named, not in a query on Postgres.
func TestTheEnginesHaveOneSchema(t *testing.T) {
	ctx := t.Context()
	lite := mustOpenOn(t, filepath.Join(t.TempDir(), "schema.db"))
	pg := mustOpenOn(t, pgtest.URL(t))
	want, err := sqliteSchema(ctx, lite.rd)
	if err != nil {
		t.Fatal(err)
	}
	got, err := postgresSchema(ctx, pg.rd)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 10 || len(want["matches"]) < 5 {
		t.Fatalf("SQLite's schema read as %d tables: the reading is wrong", len(want))
	}
	if diff := compareSchemas(want, got); diff != "" {
		t.Errorf("Postgres's schema (migrations/postgres) differs from SQLite's (migrations):\n%s", diff)
	}
}

// compareSchemas names every table, column, key and index one engine's
// schema has and the other's lacks ("" when they agree).
func compareSchemas(lite, pg schema) string {
	var out []string
	for _, table := range slices.Sorted(maps.Keys(keys(lite, pg))) {
		if engineOwn[table] {
			continue
		}
		l, p := lite[table], pg[table]
		switch {
		case l == nil:
			out = append(out, fmt.Sprintf("table %s: on Postgres only", table))
		case p == nil:
			out = append(out, fmt.Sprintf("table %s: on SQLite only", table))
		default:
			if d := cmp.Diff(l, p); d != "" {
				out = append(out, fmt.Sprintf("table %s (- SQLite, + Postgres):\n%s", table, d))
			}
		}
	}
	return strings.Join(out, "\n")
}

func keys(ms ...schema) map[string]bool {
	out := map[string]bool{}
	for _, m := range ms {
		for k := range m {
			out[k] = true
		}
	}
	return out
}

// sqliteSchema reads a SQLite database's schema, its types written as
// Postgres's (pgTypes' first choice is not assumed: a column's line
// names the type class, "integer" for both of INTEGER's).
func sqliteSchema(ctx context.Context, db *sql.DB) (schema, error) {
	tables, err := columnsOf(ctx, db, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	if err != nil {
		return nil, err
	}
	out := schema{}
	for _, table := range tables {
		var lines, pk []string
		rows, err := db.QueryContext(ctx, `SELECT name, type, "notnull", pk FROM pragma_table_info(?) ORDER BY pk`, table)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var name, typ string
			var notNull, inPK int
			if err := rows.Scan(&name, &typ, &notNull, &inPK); err != nil {
				rows.Close()
				return nil, err
			}
			if inPK > 0 {
				pk = append(pk, name)
				notNull = 1 // a primary key is never null (Postgres says so)
			}
			lines = append(lines, columnLine(name, typeClass(typ), notNull == 1))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		if len(pk) > 0 {
			lines = append(lines, "primary key ("+strings.Join(pk, ", ")+")")
		}
		fks, err := columnsOf(ctx, db, `SELECT 'foreign key ' || "from" || ' -> ' || "table" || '(' || "to" || ')' FROM pragma_foreign_key_list(?)`, table)
		if err != nil {
			return nil, err
		}
		idx, err := sqliteIndexes(ctx, db, table)
		if err != nil {
			return nil, err
		}
		lines = append(append(lines, fks...), idx...)
		slices.Sort(lines)
		out[table] = lines
	}
	return out, nil
}

// sqliteIndexes are a table's indexes but its primary key's, by columns
// and uniqueness (a UNIQUE constraint's automatic index included).
func sqliteIndexes(ctx context.Context, db *sql.DB, table string) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT name, "unique" FROM pragma_index_list(?) WHERE origin != 'pk'`, table)
	if err != nil {
		return nil, err
	}
	type index struct {
		name   string
		unique bool
	}
	var list []index
	for rows.Next() {
		var i index
		if err := rows.Scan(&i.name, &i.unique); err != nil {
			rows.Close()
			return nil, err
		}
		list = append(list, i)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []string
	for _, i := range list {
		cols, err := columnsOf(ctx, db, `SELECT COALESCE(name, '(expression)') FROM pragma_index_info(?) ORDER BY seqno`, i.name)
		if err != nil {
			return nil, err
		}
		out = append(out, indexLine(cols, i.unique))
	}
	return out, nil
}

// postgresSchema reads the current schema of a Postgres database.
func postgresSchema(ctx context.Context, db *sql.DB) (schema, error) {
	out := schema{}
	rows, err := db.QueryContext(ctx, `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = current_schema()`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var table, name, typ, nullable string
		if err := rows.Scan(&table, &name, &typ, &nullable); err != nil {
			rows.Close()
			return nil, err
		}
		out[table] = append(out[table], columnLine(name, pgTypeClass(typ), nullable == "NO"))
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Keys and indexes, from the catalog: each index's columns in order
	// (an expression's as "(expression)").
	rows, err = db.QueryContext(ctx, `
SELECT t.relname, ix.indisprimary, ix.indisunique,
       (SELECT string_agg(COALESCE(a.attname, '(expression)'), ',' ORDER BY k.n)
          FROM unnest(ix.indkey) WITH ORDINALITY AS k(attnum, n)
          LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum AND k.attnum > 0)
  FROM pg_index ix
  JOIN pg_class t ON t.oid = ix.indrelid
  JOIN pg_namespace ns ON ns.oid = t.relnamespace
 WHERE ns.nspname = current_schema()`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var table, cols string
		var primary, unique bool
		if err := rows.Scan(&table, &primary, &unique, &cols); err != nil {
			rows.Close()
			return nil, err
		}
		line := indexLine(strings.Split(cols, ","), unique)
		if primary {
			line = "primary key (" + strings.ReplaceAll(cols, ",", ", ") + ")"
		}
		out[table] = append(out[table], line)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	fks, err := db.QueryContext(ctx, `
SELECT kcu.table_name, 'foreign key ' || kcu.column_name || ' -> ' || ccu.table_name || '(' || ccu.column_name || ')'
  FROM information_schema.table_constraints tc
  JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
  JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name AND ccu.table_schema = tc.table_schema
 WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema()`)
	if err != nil {
		return nil, err
	}
	for fks.Next() {
		var table, line string
		if err := fks.Scan(&table, &line); err != nil {
			fks.Close()
			return nil, err
		}
		out[table] = append(out[table], line)
	}
	fks.Close()
	if err := fks.Err(); err != nil {
		return nil, err
	}
	for _, lines := range out {
		slices.Sort(lines)
	}
	return out, nil
}

func columnLine(name, class string, notNull bool) string {
	if notNull {
		return fmt.Sprintf("column %s %s NOT NULL", name, class)
	}
	return fmt.Sprintf("column %s %s", name, class)
}

func indexLine(cols []string, unique bool) string {
	if unique {
		return "unique index (" + strings.Join(cols, ", ") + ")"
	}
	return "index (" + strings.Join(cols, ", ") + ")"
}

// typeClass is the class of a SQLite column type that pgTypes maps: the
// type itself, "" (none declared) as it is.
func typeClass(typ string) string {
	t := strings.ToUpper(typ)
	if _, ok := pgTypes[t]; ok {
		return t
	}
	return "SQLite type " + typ
}

// pgTypeClass is the SQLite type whose mapping a Postgres type is.
func pgTypeClass(typ string) string {
	for class, pgs := range pgTypes {
		if slices.Contains(pgs, typ) {
			return class
		}
	}
	return "Postgres type " + typ
}
