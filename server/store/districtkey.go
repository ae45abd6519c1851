package store

import (
	"context"
	"database/sql"
	"fmt"
)

// KeyMismatchError refuses an instance whose key is not the district's.
type KeyMismatchError struct {
	Mine, District string // fingerprints (KeyFingerprint)
}

func (e *KeyMismatchError) Error() string {
	return fmt.Sprintf("this instance's key (fingerprint %s) is not the district's (fingerprint %s, recorded by the first instance that started on this database): every instance of a district uses the same key file, so give this one a copy of the district's (--key)", e.Mine, e.District)
}

// DistrictKey records fingerprint as the district's key, if the database
// has none yet, and refuses another (a *KeyMismatchError). On SQLite it
// does nothing: a file has one server, its key beside it.
func (s *Store) DistrictKey(ctx context.Context, fingerprint string) error {
	if !s.pg {
		return nil
	}
	var recorded string
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO district_key (id, fingerprint, recorded_at) VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING`, fingerprint, s.stamp()); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT fingerprint FROM district_key WHERE id = 1`).Scan(&recorded)
	})
	if err != nil {
		return fmt.Errorf("store: the district's key: %w", err)
	}
	if recorded != fingerprint {
		return &KeyMismatchError{Mine: fingerprint, District: recorded}
	}
	return nil
}
