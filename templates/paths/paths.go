// Package paths is pigclass's table of addresses. Every route the server
// serves is registered from one of these patterns (server/routes.go), and
// every address a page or a handler links to is built from the same
// patterns, here and nowhere else: a link cannot point where no route is,
// and a test renders the pages to check it.
//
// A class's addresses all begin with /c/{code} (students), /t/{code} (the
// teacher), /p/{code} (the read-only projector) or /join/{code}, so that a
// reverse proxy can send every request of a class to the instance that
// holds it. Practice matches, which belong to no class, live under /m/{id}.
package paths

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Route is one address pattern as the router spells it: ":code" and ":id"
// are filled in by For and With.
type Route string

// For is the route's address for the class with code.
func (r Route) For(code string) string { return strings.Replace(string(r), ":code", code, 1) }

// With is the route's address for the class with code and the match or
// student id.
func (r Route) With(code string, id int64) string {
	return strings.Replace(r.For(code), ":id", strconv.FormatInt(id, 10), 1)
}

// String is the pattern, for the router.
func (r Route) String() string { return string(r) }

// Addresses that belong to no class.
const (
	Front    Route = "/"
	Classes  Route = "/classes"  // POST: start a class
	Practice Route = "/practice" // POST: a match against a bot
	Join     Route = "/join"     // the join form; its post goes on to JoinCode
	Verify   Route = "/verify"
	Glossary Route = "/glossary"
	Privacy  Route = "/privacy"
	Help     Route = "/help" // the teacher's guide
	Lang     Route = "/lang" // POST: the language switcher
	Healthz  Route = "/healthz"
)

// A learning platform's addresses for pigclass (LTI 1.3: server/lti and
// server/front_lti.go), which belong to no class.
const (
	LTIRegister Route = "/lti/register/:key" // dynamic registration: the administrator's address, with its key (WithKey)
	LTILogin    Route = "/lti/login"         // the OIDC third-party login initiation
	LTILaunch   Route = "/lti/launch"        // POST: the platform's id_token
	LTIKeys     Route = "/lti/jwks"          // pigclass's public keys (JWKS)
	LTIDeepLink Route = "/lti/deeplink"      // POST: the instructor's choice of what a link opens
	// POST: the launch again, from pigclass's own page, once the
	// platform's storage held its state (front_lti_storage.go).
	LTILaunchStored Route = "/lti/launch/stored"
	LTIContinue     Route = "/lti/continue/:key" // a launch's page in a window of its own, once
)

// WithKey is the route's address with its key.
func (r Route) WithKey(key string) string { return strings.Replace(string(r), ":key", key, 1) }

// A practice match's addresses.
const (
	PracticeMatch  Route = "/m/:id"
	PracticeBoard  Route = "/m/:id/board"
	PracticeAct    Route = "/m/:id/act"
	PracticeRecord Route = "/m/:id/record.json"
	PracticeGuess  Route = "/m/:id/guess" // POST: a guess of a mystery bot's strength
)

// A class's addresses for anyone with its code, and for its students.
const (
	JoinCode      Route = "/join/:code"
	JoinQR        Route = "/join/:code/qr.svg"
	Student       Route = "/c/:code"
	StudentNext   Route = "/c/:code/next"
	ClassPrivacy  Route = "/c/:code/privacy"
	StudentEvents Route = "/c/:code/events" // a student's pages' event stream (?m= a board's match)
	StudentCharts Route = "/c/:code/charts"
	StudentSkunk  Route = "/c/:code/skunk"
	SkunkSit      Route = "/c/:code/skunk/sit"
	SkunkRecord   Route = "/c/:code/skunk/:id/record.json"
	ClassMatch    Route = "/c/:code/m/:id"
	ClassBoard    Route = "/c/:code/m/:id/board"
	ClassAct      Route = "/c/:code/m/:id/act"
	ClassEnter    Route = "/c/:code/m/:id/enter" // a table's entries: a decision, a throw's pieces
	ClassRecord   Route = "/c/:code/m/:id/record.json"
	ClassGuess    Route = "/c/:code/m/:id/guess"
	ClassVerify   Route = "/c/:code/verify"
	MyData        Route = "/c/:code/my-data.json"
	PlayHomework  Route = "/c/:code/homework/:id/play"
	StudentPlan   Route = "/c/:code/plan"         // GET: the strategy editor; POST: save a plan
	PlanChances   Route = "/c/:code/plan/chances" // the saved plan's chances, as they are worked out
	PlanJSON      Route = "/c/:code/plan.json"    // the saved plan, as pigclass duel reads it
	StudentLab    Route = "/c/:code/lab"          // GET: the simulation lab (?run= a run whose path to draw); POST: run an experiment
)

// The teacher's addresses.
const (
	Teacher         Route = "/t/:code"
	TeacherLive     Route = "/t/:code/live"
	TeacherEvents   Route = "/t/:code/events" // the dashboard's and the teacher's shared screen's event stream
	TeacherCharts   Route = "/t/:code/charts"
	ProjectorChart  Route = "/t/:code/projector-chart"
	ClassLanguage   Route = "/t/:code/language"
	Lock            Route = "/t/:code/lock"
	Open            Route = "/t/:code/open"
	Pause           Route = "/t/:code/pause"
	Resume          Route = "/t/:code/resume"
	AnonymousOn     Route = "/t/:code/anonymous-on"
	AnonymousOff    Route = "/t/:code/anonymous-off"
	JoinsUnlimited  Route = "/t/:code/joins/unlimited"
	CodesOpen       Route = "/t/:code/codes/open"
	ListHide        Route = "/t/:code/list/hide"
	ListShow        Route = "/t/:code/list/show"
	CodesClosed     Route = "/t/:code/codes/closed"
	JoinsLimited    Route = "/t/:code/joins/limited"
	TeacherSkunk    Route = "/t/:code/skunk"
	SkunkRoll       Route = "/t/:code/skunk/roll"
	SkunkEnd        Route = "/t/:code/skunk/end"
	SkunkStart      Route = "/t/:code/skunk/start" // POST: Skunk for the whole room, from the dashboard
	LessonNext      Route = "/t/:code/lesson/next"
	LessonBack      Route = "/t/:code/lesson/back"
	LessonStart     Route = "/t/:code/lesson/start"
	LessonCountdown Route = "/t/:code/lesson/countdown"
	LessonPlan      Route = "/t/:code/lesson"
	Rounds          Route = "/t/:code/rounds"
	RoundsEnd       Route = "/t/:code/rounds/end"
	RoundsAgain     Route = "/t/:code/rounds/again"
	TeacherStudent  Route = "/t/:code/students/:id"
	RemoveStudent   Route = "/t/:code/students/:id/remove"
	ReadmitStudent  Route = "/t/:code/students/:id/readmit"
	StudentData     Route = "/t/:code/students/:id/data.json"
	EraseStudent    Route = "/t/:code/students/:id/erase"
	Homework        Route = "/t/:code/homework"
	Tournament      Route = "/t/:code/tournament"       // GET: the strategy tournament; POST: open one
	Tables          Route = "/t/:code/tables"           // GET: the class's tables; POST: open one
	TableSheet      Route = "/t/:code/tables/sheet"     // a printable score sheet (?game=, &players=)
	RosterPreview   Route = "/t/:code/roster/preview"   // POST: an uploaded class list, read and checked, nothing stored
	Roster          Route = "/t/:code/roster"           // POST: add a class list's new names
	LoginCards      Route = "/t/:code/cards"            // the students' login cards, to print
	LTIScore        Route = "/t/:code/grade"            // POST: what a learning platform's gradebook column gets
	PoseLab         Route = "/t/:code/lab"              // POST: pose the lab's question
	RevealLab       Route = "/t/:code/lab/reveal"       // POST: show (reveal=1) or hide the exact answer
	TournamentClose Route = "/t/:code/tournament/close" // close the entries and play it
	TournamentLive  Route = "/t/:code/tournament/live"  // its state and standings, while played
	HomeworkClose   Route = "/t/:code/homework/:id/close"
	HomeworkOpen    Route = "/t/:code/homework/:id/open"
	HomeworkDue     Route = "/t/:code/homework/:id/due"
	RenewRejoin     Route = "/t/:code/students/:id/rejoin"
	ExtraTime       Route = "/t/:code/students/:id/extra-time"
	ConfirmRenew    Route = "/t/:code/confirm/rejoin/:id"
	ConfirmErase    Route = "/t/:code/confirm/erase/:id"
	DeleteClass     Route = "/t/:code/delete"
	ConfirmEndRound Route = "/t/:code/confirm/end-round"
	ConfirmStep     Route = "/t/:code/confirm/step"  // a lesson step that ends a round being played
	ConfirmSkunk    Route = "/t/:code/confirm/skunk" // Skunk that ends a round being played
	ConfirmRemove   Route = "/t/:code/confirm/remove/:id"
	ConfirmDelete   Route = "/t/:code/confirm/delete"
	DecisionsCSV    Route = "/t/:code/decisions.csv"
	MatchesCSV      Route = "/t/:code/matches.csv"
	StudentsCSV     Route = "/t/:code/students.csv"
	PlayersCSV      Route = "/t/:code/match_players.csv"
	StrategiesCSV   Route = "/t/:code/strategies.csv"
	TournamentCSV   Route = "/t/:code/tournament.csv"
	ExperimentsCSV  Route = "/t/:code/experiments.csv"
)

// CSV is the address of one of a class's CSV files by its name
// ("decisions", "matches", "match_players", "students").
func CSV(code, name string) string { return "/t/" + code + "/" + name + ".csv" }

// Projector is one projector view's pages: the teacher's (with the Skunk
// controls) or the read-only one for the classroom's computer.
type Projector struct {
	Page, Live, Chart, Skunk, Results Route
}

// ProjectorEvents is the read-only shared screen's event stream.
const ProjectorEvents Route = "/p/:code/events"

// The two projector views.
var (
	TeacherProjector = Projector{
		Page: "/t/:code/projector", Live: "/t/:code/projector/live", Chart: "/t/:code/projector/chart",
		Skunk: "/t/:code/projector/skunk", Results: "/t/:code/projector/results",
	}
	ReadOnlyProjector = Projector{
		Page: "/p/:code", Live: "/p/:code/live", Chart: "/p/:code/chart",
		Skunk: "/p/:code/skunk", Results: "/p/:code/results",
	}
)

// Match is a match's page: under its class's code, or /m/{id} for
// practice (code "").
func Match(code string, id int64) string {
	if code == "" {
		return PracticeMatch.With("", id)
	}
	return ClassMatch.With(code, id)
}

// Act is where a match's moves are posted.
func Act(code string, id int64) string {
	if code == "" {
		return PracticeAct.With("", id)
	}
	return ClassAct.With(code, id)
}

// Guess is where a guess of a match's mystery bot is posted.
func Guess(code string, id int64) string {
	if code == "" {
		return PracticeGuess.With("", id)
	}
	return ClassGuess.With(code, id)
}

// Record is a finished match's record, for verify.
func Record(code string, id int64) string {
	if code == "" {
		return PracticeRecord.With("", id)
	}
	return ClassRecord.With(code, id)
}

// Board is the board's poll; version is what the page shows, so that a
// poll that finds nothing new is answered with 204 and swaps nothing.
func Board(code string, id int64, version string) string {
	b := PracticeBoard.With("", id)
	if code != "" {
		b = ClassBoard.With(code, id)
	}
	return b + "?v=" + url.QueryEscape(version)
}

// VerifyMatch is the verify page filled with a match's record; a class
// match's is under its class's address.
func VerifyMatch(code string, id int64) string {
	if code == "" {
		return fmt.Sprintf("%s?match=%d", Verify, id)
	}
	return fmt.Sprintf("%s?match=%d", ClassVerify.For(code), id)
}

// Next asks whether a student's next match (after match after) has begun.
func Next(code string, after int64) string {
	if after == 0 {
		return StudentNext.For(code)
	}
	return fmt.Sprintf("%s?after=%d", StudentNext.For(code), after)
}

// Poll adds the version a live part shows to its poll address.
func Poll(path string, version int64) string { return fmt.Sprintf("%s?v=%d", path, version) }

// Query adds a query to an address: Query(Teacher.For(c), "chart", "x").
func Query(path string, kv ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Set(kv[i], kv[i+1])
	}
	return path + "?" + q.Encode()
}
