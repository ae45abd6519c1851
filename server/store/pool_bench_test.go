package store

import (
	"context"
	"database/sql"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pigclass/server/store/pgtest"
)

// BenchmarkWriterLoop is the writer's loop on Postgres (a batch of 32
// jobs, a savepoint each, one commit) through database/sql, as the store
// runs it, and through pgx's own pool: whether the store should leave
// database/sql for pgx's pool (server/DEVELOPING.md, "One store, two engines").
func BenchmarkWriterLoop(b *testing.B) {
	const jobs = 32
	const insert = `INSERT INTO bench_loop (id, seq, v) VALUES ($1, $2, $3)`
	url := pgtest.URL(b)
	setup, err := sql.Open("pgx", url)
	if err != nil {
		b.Fatal(err)
	}
	defer setup.Close()
	if _, err := setup.Exec(`CREATE TABLE bench_loop (id BIGINT, seq INT, v TEXT, PRIMARY KEY (id, seq))`); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	id := 0 // each batch's own rows: a sub-benchmark runs more than once
	b.Run("database-sql", func(b *testing.B) {
		db, _ := sql.Open("pgx", url)
		defer db.Close()
		db.SetMaxOpenConns(1)
		for b.Loop() {
			id++
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				b.Fatal(err)
			}
			for j := range jobs {
				tx.ExecContext(ctx, "SAVEPOINT job")
				if _, err := tx.ExecContext(ctx, insert, id, j, "x"); err != nil {
					b.Fatal(err)
				}
				tx.ExecContext(ctx, "RELEASE job")
			}
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("pgx-pool", func(b *testing.B) {
		pool, err := pgxpool.New(ctx, url)
		if err != nil {
			b.Fatal(err)
		}
		defer pool.Close()
		for b.Loop() {
			id++
			tx, err := pool.BeginTx(ctx, pgx.TxOptions{})
			if err != nil {
				b.Fatal(err)
			}
			for j := range jobs {
				tx.Exec(ctx, "SAVEPOINT job")
				if _, err := tx.Exec(ctx, insert, id, j, "x"); err != nil {
					b.Fatal(err)
				}
				tx.Exec(ctx, "RELEASE job")
			}
			if err := tx.Commit(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
}
