package server

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"pigclass/templates"
	"pigclass/templates/i18n"
)

// privacyTable is a table of the database as the privacy page names it:
// its words are the catalog's privacy.table.NAME.
type privacyTable struct {
	Name    string
	Columns []privacyColumn
	// District marks a table a district's Postgres alone holds (a SQLite
	// file has one server).
	District bool
}

// privacyColumn is a column and the catalog key of its words
// (privacy.col.KEY): the column's own name where every table means the
// same by it, else TABLE-COLUMN.
type privacyColumn struct{ Name, Key string }

// privacyTables are every table and column of the database, in the order
// the privacy page names them. A new column is named here, with its words
// in the five catalogs: TestPrivacyPageNamesEveryColumn holds this list
// to the schema the migrations make.
var privacyTables = []privacyTable{
	{"classes", []privacyColumn{
		{"id", "classes-id"},
		{"code", "code"},
		{"teacher_hash", "teacher_hash"},
		{"locked", "locked"},
		{"paused", "paused"},
		{"anonymous", "anonymous"},
		{"created_at", "classes-created_at"},
		{"projector_chart", "projector_chart"},
		{"lesson", "lesson"},
		{"phase", "phase"},
		{"language", "language"},
		{"off_lesson", "off_lesson"},
		{"retain_from", "retain_from"},
		{"countdown", "countdown"},
		{"lab", "lab"},
		{"lab_revealed", "lab_revealed"},
		{"codes_open", "codes_open"},
		{"list_hidden", "list_hidden"},
	}, false},
	{"students", []privacyColumn{
		{"id", "students-id"},
		{"class_id", "students-class_id"},
		{"nickname", "nickname"},
		{"anon_name", "anon_name"},
		{"token_hash", "token_hash"},
		{"removed", "removed"},
		{"joined_at", "joined_at"},
		{"erased_at", "erased_at"},
		{"rejoin_epoch", "students-rejoin_epoch"},
		{"extra_seconds", "extra_seconds"},
		{"roster", "roster"},
	}, false},
	{"moved_tokens", []privacyColumn{
		{"token_hash", "moved_tokens-token_hash"},
		{"class_id", "class_id"},
		{"student_id", "student_id"},
	}, false},
	{"plans", []privacyColumn{
		{"class_id", "class_id"},
		{"student_id", "student_id"},
		{"plan", "plans-plan"},
		{"saved_at", "plans-saved_at"},
	}, false},
	{"experiments", []privacyColumn{
		{"id", "experiments-id"},
		{"class_id", "class_id"},
		{"student_id", "student_id"},
		{"variant", "variant"},
		{"first", "experiments-first"},
		{"second", "experiments-second"},
		{"games", "experiments-games"},
		{"seed", "experiments-seed"},
		{"wins", "experiments-wins"},
		{"created_at", "created_at"},
		{"day", "day"},
	}, false},
	{"tournaments", []privacyColumn{
		{"id", "tournaments-id"},
		{"class_id", "class_id"},
		{"variant", "variant"},
		{"bots", "tournaments-bots"},
		{"created_at", "created_at"},
		{"closes_at", "tournaments-closes_at"},
		{"closed_at", "tournaments-closed_at"},
		{"standings", "tournaments-standings"},
		{"entries", "tournaments-entries"},
	}, false},
	{"rounds", []privacyColumn{
		{"id", "rounds-id"},
		{"class_id", "class_id"},
		{"number", "number"},
		{"variant", "variant"},
		{"mode", "mode"},
		{"bot", "bot"},
		{"same_seed", "same_seed"},
		{"started_at", "started_at"},
		{"ended_at", "ended_at"},
		{"day", "day"},
		{"arms", "rounds-arms"},
	}, false},
	{"matches", []privacyColumn{
		{"id", "matches-id"},
		{"class_id", "class_id"},
		{"round_id", "round_id"},
		{"variant", "variant"},
		{"seed", "seed"},
		{"commitment", "commitment"},
		{"first_seat", "first_seat"},
		{"status", "status"},
		{"winner", "winner"},
		{"result", "result"},
		{"created_at", "created_at"},
		{"ended_at", "ended_at"},
		{"assignment_id", "assignment_id"},
		{"day", "day"},
		{"at_table", "at_table"},
	}, false},
	{"seats", []privacyColumn{
		{"match_id", "match_id"},
		{"seat", "seat"},
		{"student_id", "student_id"},
		{"bot", "seats-bot"},
		{"arm", "seats-arm"},
	}, false},
	{"events", []privacyColumn{
		{"match_id", "match_id"},
		{"seq", "seq"},
		{"seat", "events-seat"},
		{"action", "action"},
		{"turn", "turn"},
		{"roll", "roll"},
		{"faces", "faces"},
		{"by", "by"},
		{"at", "at"},
		{"score", "score"},
		{"scores", "scores"},
		{"opponent_score", "opponent_score"},
		{"turn_total", "turn_total"},
		{"dice", "dice"},
		{"win_if_roll", "win_if_roll"},
		{"win_if_hold", "win_if_hold"},
		{"win_if_chosen", "win_if_chosen"},
		{"options", "options"},
		{"best_action", "best_action"},
		{"ev_action", "ev_action"},
		{"cost", "cost"},
		{"approximate", "approximate"},
		{"pending", "pending"},
		{"entered", "entered"},
		{"agrees", "agrees"},
		{"plan", "events-plan"},
	}, false},
	{"skunk_games", []privacyColumn{
		{"id", "skunk_games-id"},
		{"class_id", "class_id"},
		{"seed", "seed"},
		{"commitment", "commitment"},
		{"rounds", "rounds"},
		{"status", "status"},
		{"created_at", "created_at"},
		{"day", "day"},
	}, false},
	{"skunk_players", []privacyColumn{
		{"game_id", "game_id"},
		{"participant", "participant"},
		{"student_id", "student_id"},
	}, false},
	{"skunk_events", []privacyColumn{
		{"game_id", "game_id"},
		{"seq", "seq"},
		{"action", "skunk_events-action"},
		{"participant", "participant"},
		{"round", "round"},
		{"roll", "skunk_events-roll"},
		{"faces", "faces"},
		{"round_total", "round_total"},
		{"score", "skunk_events-score"},
		{"ev_action", "ev_action"},
		{"at", "at"},
	}, false},
	{"mystery_guesses", []privacyColumn{
		{"match_id", "match_id"},
		{"seat", "mystery_guesses-seat"},
		{"student_id", "student_id"},
		{"guess", "guess"},
		{"at", "at"},
	}, false},
	{"assignments", []privacyColumn{
		{"id", "assignments-id"},
		{"class_id", "class_id"},
		{"variant", "variant"},
		{"bot", "bot"},
		{"games", "games"},
		{"due_at", "due_at"},
		{"created_at", "created_at"},
		{"closed_at", "closed_at"},
	}, false},
	{"class_days", []privacyColumn{
		{"class_id", "class_id"},
		{"day", "day"},
		{"lesson", "class_days-lesson"},
	}, false},
	{"lti_platforms", []privacyColumn{
		{"id", "lti_platforms-id"},
		{"issuer", "issuer"},
		{"client_id", "client_id"},
		{"login_url", "lti_platforms-login_url"},
		{"token_url", "lti_platforms-token_url"},
		{"keys_url", "lti_platforms-keys_url"},
		{"registered_at", "lti_platforms-registered_at"},
	}, false},
	{"lti_deployments", []privacyColumn{
		{"platform_id", "platform_id"},
		{"deployment_id", "deployment_id"},
	}, false},
	{"lti_links", []privacyColumn{
		{"class_id", "class_id"},
		{"issuer", "issuer"},
		{"client_id", "client_id"},
		{"deployment_id", "deployment_id"},
		{"context_id", "lti_links-context_id"},
		{"resource_link_id", "lti_links-resource_link_id"},
		{"memberships_url", "lti_links-memberships_url"},
		{"lineitem_url", "lti_links-lineitem_url"},
		{"score", "lti_links-score"},
	}, false},
	{"lti_members", []privacyColumn{
		{"student_id", "student_id"},
		{"class_id", "class_id"},
		{"user_id", "lti_members-user_id"},
	}, false},
	{"lti_scores", []privacyColumn{
		{"student_id", "student_id"},
		{"class_id", "class_id"},
		{"sent", "lti_scores-sent"},
		{"sent_at", "lti_scores-sent_at"},
		{"failures", "lti_scores-failures"},
		{"retry_at", "lti_scores-retry_at"},
	}, false},
	{"lti_nonces", []privacyColumn{
		{"nonce", "lti_nonces-nonce"},
		{"expires_at", "lti_nonces-expires_at"},
	}, false},
	{"lti_keys", []privacyColumn{
		{"kid", "lti_keys-kid"},
		{"sealed", "lti_keys-sealed"},
		{"created_at", "created_at"},
		{"retired_at", "lti_keys-retired_at"},
	}, false},
	{"migrations", []privacyColumn{
		{"name", "name"},
		{"applied_at", "applied_at"},
	}, false},
	{"started", []privacyColumn{
		{"id", "started-id"},
		{"at", "at"},
	}, false},
	{"class_leases", []privacyColumn{
		{"class_id", "class_id"},
		{"holder", "class_leases-holder"},
		{"generation", "class_leases-generation"},
		{"expires_at", "class_leases-expires_at"},
	}, true},
	{"district_key", []privacyColumn{
		{"id", "district_key-id"},
		{"fingerprint", "district_key-fingerprint"},
		{"recorded_at", "district_key-recorded_at"},
	}, true},
}

// privacy is the page that says what pigclass stores, table by table and
// column by column, what the log holds, who sees it, where it lives, how
// long it is kept and how to get it or erase it. Linked from every page's
// footer; it reads nothing of any class.
func (s *Server) privacy(c *gin.Context) {
	render(c, http.StatusOK, templates.PrivacyView(privacyView(loc(c), int(s.room.Retention().Hours()/24), s.district != nil)))
}

// classPrivacy is the privacy page as a class's student reads it from
// their pages' footer: the same page, which goes to their board when
// their next game begins.
func (s *Server) classPrivacy(c *gin.Context) {
	if _, _, ok := s.studentOf(c); !ok {
		return
	}
	followClass(c)
	s.privacy(c)
}

// privacyView says the page in the reader's language; days is how long a
// class is kept after its last activity (0: until deleted); district, the
// data is a district's Postgres, not a SQLite file.
func privacyView(l *i18n.Localizer, days int, district bool) templates.Privacy {
	v := templates.Privacy{Kept: l.T("privacy.kept.forever"), Where: l.T("privacy.where.text")}
	if days > 0 {
		v.Kept = l.N("privacy.kept.days", days)
	}
	if district {
		v.Where, v.District = l.T("privacy.where.postgres"), l.T("privacy.district_note")
		v.ErasedDistrict = l.T("privacy.erase_district")
	}
	for _, t := range privacyTables {
		if t.District && !district {
			continue
		}
		pt := templates.PrivacyTable{Name: t.Name, About: l.T("privacy.table." + t.Name)}
		for _, col := range t.Columns {
			pt.Columns = append(pt.Columns, templates.PrivacyColumn{Name: col.Name, Means: l.T("privacy.col." + col.Key)})
		}
		v.Tables = append(v.Tables, pt)
	}
	return v
}
