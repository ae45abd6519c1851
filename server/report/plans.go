package report

import (
	"context"
	"encoding/json"
	"io"
	"strconv"
	"time"

	"pigclass/server/contest"
	"pigclass/server/store"
	"pigclass/sim"
)

// StrategiesFile is one row per student's strategy (issue 46; sim/plans.md),
// and for a map one row per cell: its numbers as the student saved them.
var StrategiesFile = newFile("strategies",
	colClass,
	Column{"student", KindText, false, nil},
	colGame,
	Column{"target", KindInteger, false, nil},
	Column{"form", KindChoice, false, []string{sim.PlanHold, sim.PlanRule, sim.PlanMap}},
	Column{"saved_at", KindTime, false, nil},
	Column{"hold", KindInteger, true, nil},
	Column{"behind_by", KindInteger, true, nil},
	Column{"behind_hold", KindInteger, true, nil},
	Column{"ahead_by", KindInteger, true, nil},
	Column{"ahead_hold", KindInteger, true, nil},
	Column{"end_race", KindInteger, true, nil},
	Column{"cell_score", KindInteger, true, nil},
	Column{"cell_other", KindInteger, true, nil},
)

// TournamentFile is one row per entry of each played tournament: its rank
// and average exact chance, and its easiest and hardest opponents.
var TournamentFile = newFile("tournament",
	colClass,
	Column{"tournament", KindInteger, false, nil},
	colGame,
	Column{"target", KindInteger, false, nil},
	Column{"rank", KindInteger, false, nil},
	Column{"entry", KindText, false, nil},
	Column{"bot", KindBoolean, false, nil},
	colBotID,
	Column{"average_pct", KindNumber, false, nil},
	Column{"best_opponent", KindText, false, nil},
	Column{"best_pct", KindNumber, false, nil},
	Column{"worst_opponent", KindText, false, nil},
	Column{"worst_pct", KindNumber, false, nil},
)

// names are a class's students' names in a file: real nicknames, or the
// generated ones.
func names(ctx context.Context, st *store.Store, class store.Class, real bool) (map[int64]string, error) {
	in, err := st.Students(ctx, class.ID)
	if err != nil {
		return nil, err
	}
	removed, err := st.RemovedStudents(ctx, class.ID)
	if err != nil {
		return nil, err
	}
	out := map[int64]string{}
	for _, s := range append(in, removed...) {
		out[s.ID] = s.AnonName
		if real {
			out[s.ID] = s.Nickname
		}
	}
	return out, nil
}

// writeStrategies writes strategies.csv.
func writeStrategies(ctx context.Context, src exportSource, class store.Class, real bool, _ string, w io.Writer) error {
	st := src.st
	who, err := names(ctx, st, class, real)
	if err != nil {
		return err
	}
	plans, err := st.Plans().Of(ctx, class.ID, 0)
	if err != nil {
		return err
	}
	var rows [][]string
	for _, sp := range plans {
		rows = append(rows, strategyRows(class.Code, who[sp.StudentID], sp)...)
	}
	return writeCSV(w, StrategiesFile.Header(), rows)
}

// strategyRows are a saved plan's rows of strategies.csv: one, or one a
// cell for a map.
func strategyRows(code, student string, sp store.SavedPlan) [][]string {
	pl := sp.Plan
	row := func() csvRow {
		return StrategiesFile.row().set("class", code).set("student", student).set("game", pl.Game).
			set("target", strconv.Itoa(pl.Target)).set("form", pl.Form).set("saved_at", sp.SavedAt.Local().Format(time.RFC3339))
	}
	switch pl.Form {
	case sim.PlanMap:
		var out [][]string
		for a, cells := range pl.Cells {
			for b, h := range cells {
				out = append(out, row().set("cell_score", strconv.Itoa(a*sim.MapCell)).set("cell_other", strconv.Itoa(b*sim.MapCell)).set("hold", strconv.Itoa(h)).cells)
			}
		}
		return out
	case sim.PlanRule:
		return [][]string{row().set("hold", strconv.Itoa(pl.Hold)).set("behind_by", strconv.Itoa(pl.BehindBy)).set("behind_hold", strconv.Itoa(pl.BehindHold)).
			set("ahead_by", strconv.Itoa(pl.AheadBy)).set("ahead_hold", strconv.Itoa(pl.AheadHold)).set("end_race", strconv.Itoa(pl.EndRace)).cells}
	}
	return [][]string{row().set("hold", strconv.Itoa(pl.Hold)).cells}
}

// writeTournaments writes tournament.csv: the class's played tournaments,
// each entry in rank order.
func writeTournaments(ctx context.Context, src exportSource, class store.Class, real bool, _ string, w io.Writer) error {
	st := src.st
	who, err := names(ctx, st, class, real)
	if err != nil {
		return err
	}
	ts, err := st.Plans().Tournaments(ctx, class.ID)
	if err != nil {
		return err
	}
	cw := newCSVWriter(w, TournamentFile.Header())
	for _, t := range ts {
		var res contest.Result
		if t.Standings == nil || json.Unmarshal(t.Standings, &res) != nil {
			continue
		}
		name := func(i int) string {
			if e := res.Entries[i]; e.Bot != "" {
				return BotPlayer(e.Bot, t.Variant.Game.Rules().HoldAt)
			}
			return who[res.Entries[i].Student]
		}
		for _, s := range res.Standings {
			r := TournamentFile.row().set("class", class.Code).set("tournament", strconv.FormatInt(t.ID, 10)).set("game", t.Variant.Game.String()).
				set("target", strconv.Itoa(t.Variant.Target)).set("rank", strconv.Itoa(s.Rank)).set("entry", name(s.Entry)).
				set("bot", strconv.FormatBool(res.Entries[s.Entry].Bot != "")).set("bot_id", res.Entries[s.Entry].Bot).set("average_pct", PctCell(s.Average)).
				set("best_opponent", name(s.Best)).set("best_pct", PctCell(s.BestChance)).set("worst_opponent", name(s.Worst)).set("worst_pct", PctCell(s.WorstChance))
			if err := cw.row(r.cells); err != nil {
				return err
			}
		}
	}
	return cw.flush()
}
