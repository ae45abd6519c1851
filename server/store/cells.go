package store

import (
	"fmt"

	"pigclass/sim"
)

// actionCell reads a stored action into a sim.Action; an empty cell (no
// analysis) is the zero Action.
type actionCell struct{ a *sim.Action }

// Scan implements sql.Scanner.
func (c actionCell) Scan(v any) error {
	var s string
	switch v := v.(type) {
	case string:
		s = v
	case []byte:
		s = string(v)
	case nil:
	default:
		return fmt.Errorf("store: an action stored as %T", v)
	}
	if s == "" {
		*c.a = sim.Action{}
		return nil
	}
	a, err := sim.ParseAction(s)
	if err != nil {
		return err
	}
	*c.a = a
	return nil
}
