// Package templates holds the templ components of pigclass. Every
// component takes a typed view model from this file; none reads data itself.
package templates

import (
	"context"
	"html"
	"io"

	"github.com/a-h/templ"

	"pigclass/templates/i18n"
)

// Page is what every page's layout needs.
type Page struct {
	Title  string
	Wide   bool // the projector: a large, full-width page
	Charts bool // the page draws charts: load ECharts
	// Gone is what the page says in its place when its live parts find
	// its class gone (a poll's 404); a poll's 403 says its own words.
	Gone string
	// Screen: the page is one screen high and does not scroll (the
	// projector); its main part fills what the top bar leaves.
	Screen bool
}

// Field is one form field's value and its error, kept when a form comes back.
type Field struct {
	Value string
	Error string
}

// Choice is one option of a select.
type Choice struct {
	Value, Label string
	Selected     bool
}

// Front is the front page: start a class, join one, practise.
type Front struct {
	Code, Nickname, Rejoin Field
	Games                  []Choice
	Bots                   []Choice
	Lessons                []Choice
	Error                  string
	// Notice says what was just done (the class deleted).
	Notice string
}

// Join is the join page.
type Join struct {
	Code, Nickname, Rejoin Field
	Error                  string
	// Roster are the names of the class's list, to pick one's own (none
	// when the class has no list); Picked is the one picked.
	Roster []string
	Picked string
	// RosterError says why picking a name did not get the student in.
	RosterError string
	// AskRoster offers a student of the class list to see its names.
	AskRoster bool
	// Notice says why a browser is here again: its seat moved to another
	// device.
	Notice string
}

// Dashboard is the teacher's class page.
type Dashboard struct {
	// ListHidden: the class list's names are kept off the join page.
	ListHidden bool
	// Lab is the class's simulation lab.
	Lab LabPanel
	// Homework are the class's assignments, newest first.
	Homework []HomeworkRow
	// Tournament is the class's strategy tournament in a sentence ("" for
	// none), beside the link to its page.
	Tournament string
	// Days are the days the class played, oldest first: a unit of
	// several lessons.
	Days []DayRow
	// Retention says when the class is erased unless used again ("" when
	// the server keeps classes until they are deleted).
	Retention string
	// NextStep, while a lesson runs, is its next step (the bar's primary
	// button): starting the current phase if it has not started, else
	// the next phase; nil after the last.
	NextStep *Step
	Exports  []Export
	// Approximate: the class has played matches of three or more players,
	// whose costs and agreement are approximate.
	Approximate bool
	Code        string
	JoinURL     string
	// Reach, when not empty, says that students' devices cannot (or may
	// not) reach JoinURL, and what to do.
	Reach       string
	TeacherURL  string
	Locked      bool
	Paused      bool
	Anonymous   bool
	Platform    *PlatformPart // for a class a learning platform's link opens (LTI)
	Live        DashLive
	Games       []Choice
	Bots        []Choice
	Round       RoundForm
	RoundActive bool
	Notice      string
	Charts      []Chart  // the chart shown (one at a time)
	ChartTabs   []Choice // every chart, the shown one selected
	// ChartScopes are today and the whole unit, the shown one selected
	// (ChartScope: "today" or "unit").
	ChartScopes []Choice
	ChartScope  string
	Projector   string // the key of the chart on the projector
	// ProjectorURL is the read-only projector link, with its key.
	ProjectorURL string
	// CanPlayAgain: a round was played; "Play again" starts one like it.
	CanPlayAgain bool
	Lesson       *LessonView
	Skunk        *SkunkBoard
	// Language is the class's language ("" for each reader's own).
	Language string
	// LessonPlans are the plans the class may follow next, its own
	// selected.
	LessonPlans []Choice
}

// ThrownPiece is one piece of a throw as the board draws it, in the look
// its game declares (sim.Look): a die by its face's pips (Pips, Mark), a
// pig by its pose (one of sim.PigPoses), any other piece as a token with
// its mark's name (Name, in words) on it.
type ThrownPiece struct {
	Pips bool
	Mark int
	Pose string
	Name string
}

// RoundForm is the start-a-round form with its values and errors.
type RoundForm struct {
	Game, Target, MaxDice, Deadline, Mode, Bot, Seats Field
	// Games and Due set the same game against the bot as homework, or
	// Phase's (HomeworkPhases: the class's lesson's phases that play a
	// game, "" for the form's own game).
	Games, Due, Phase    Field
	HomeworkPhases       []Choice
	EqualTurns, SameSeed bool
	// Arms: a round of the experiment "Decide before you roll".
	Arms bool
	// ChoosesDice: the game is one throw of chosen dice a turn (Hog), so
	// the form asks for the most dice.
	ChoosesDice bool
	Error       string
}

// DashLive is the part of the dashboard that refreshes itself.
type DashLive struct {
	Code     string
	PollURL  string // with the version shown: unchanged, the poll gets 204
	Round    string
	Paused   bool
	Locked   bool
	Students []StudentRow
	// MoreStudents is how many of the class's students are past those
	// drawn (Students): a class too large to draw whole each second;
	// AllStudentsURL is the dashboard with every one of them.
	MoreStudents   int
	AllStudentsURL string
	// Progress is the open round's: matches playing and finished.
	Progress string
	// RoundActive: a match of the open round still plays (the bar's "End
	// the round" applies); OOB: the poll's answer redraws the bar's.
	RoundActive, OOB bool
	Matches          []MatchRow
	MoreMatches      int // matches in progress not listed
	// Decisions counts the students' own decisions; OtherMoves the
	// bots' moves and the moves made for a student out of time.
	Decisions, OtherMoves int
	// Removed students, whom the teacher may let back in.
	Removed []StudentRow
	// Joins in the last minute against the class's cap, unless lifted.
	JoinsLastMinute, JoinCap int
	JoinsUnlimited           bool
	// Pace is the pacing view: every student at a glance, at the top of
	// the dashboard (redrawn with the poll's answer).
	Pace Pace
	// RosterScopes link the roster's figures of today and of the whole
	// unit, the shown one selected (none before the class plays today).
	RosterScopes []Choice
}

// Pace is where every student of the class is, a chip each, with the
// number of each kind.
type Pace struct {
	Chips  []PaceChip
	Counts []PaceCount
	More   int // the students counted who have no chip (past the roster's)
}

// PaceChip is one student in the pacing view. Kind is one of PaceKinds;
// Says is where they are in words (the status of the roster).
type PaceChip struct {
	Name, Kind, Says string
}

// PaceCount is how many students are of one kind, and the kind's words.
type PaceCount struct {
	Kind, Label string
	N           int
}

// PaceKinds are the pacing view's kinds, in the order its counts go:
// playing; out of time (playing, and the clock has moved for them in this
// match); done (their match of the open round is over); waiting (for a
// match); forfeited (their last match, on time-outs); absent (of the
// class list, not in their seat yet).
var PaceKinds = []string{"playing", "stuck", "done", "waiting", "forfeited", "absent"}

// StudentRow is one student on the dashboard.
type StudentRow struct {
	ID           int64
	Name         string
	Anon         string
	Status       string
	Games, Wins  int
	Decisions    int
	AgreeOptimal string
	Cost         string
	// CostPerGame is the chance of winning the student's choices gave
	// away in a game, on average ("6.1%").
	CostPerGame string
	// Playing: in a match now; ReviewURL opens the student's matches for
	// the teacher ("" before their first).
	Playing   bool
	ReviewURL string
	// Erased: a removed student the teacher erased (Name is "erased
	// student N"): not to be let back in.
	Erased bool
	// SameDevice names the other students who joined from the student's
	// device ("" for none): a second name of one child, or a shared seat.
	SameDevice string
}

// MatchRow is one match in progress on the dashboard.
type MatchRow struct {
	ID        int64
	Players   string
	Status    string
	Decisions int
}

// ProjectorScreen is the projector, as the class's state shows it.
type ProjectorScreen struct {
	// Clock is the countdown of the lesson's phase, if the teacher set
	// one.
	Clock *PhaseClock
	// State is what the screen shows: "lobby" (who has joined), "round"
	// (a round being played), "results" (the last round's podium),
	// "tournament" (a strategy tournament being played, or its standings),
	// "discuss" (a lesson's discussion: its question and chart first, the
	// last round's podium, if any, beside them) or "skunk".
	State string
	// Join is how the join code shows: "big" (the lobby), "corner" (a
	// band beside the heading) or "closed" (joining is closed: no code).
	Join    string
	Code    string
	JoinURL string
	QR      string // the QR code of the join address, an SVG
	// Alone: no student's device can reach JoinURL (this computer's own
	// name for itself): the screen shows neither it nor its QR code.
	Alone bool
	// PollURL asks for the screen again: 204 while its state is the same.
	PollURL string
	// PhaseLine names the lesson's phase; Heading the round, large;
	// Progress how many of its matches play and are finished.
	PhaseLine, Heading, Progress string
	// Prompts are the lesson phase's questions for the class.
	Prompts []string
	Live    ProjectorLive
	Chart   ProjectorChart
	Skunk   *SkunkBoard
	Results *Results
	// Standings are a strategy tournament's first entries ("tournament").
	Standings []StandingRow
	// Tables are the tables still playing ("tables"): players and scores.
	Tables []TableRow
}

// StandingRow is an entry of a tournament's standings on the projector.
type StandingRow struct{ Rank, Name, Average string }

// ProjectorChart is the chart the teacher picked, refreshed live.
type ProjectorChart struct {
	Code    string
	PollURL string
	Chart   *Chart
}

// ProjectorLive is who has joined, on the projector.
type ProjectorLive struct {
	Count int
	Names []string
}

// PhaseAsks is what a lesson's phase without a game asks of the
// students: Words says it ("Phase 2: Design. Design your strategy
// now:"); Plan, the phase has them design their strategy (the editor a
// tap away); Lab, run the simulation lab. Code is the class's, for the
// links. Words is "" when the class is at no such phase.
type PhaseAsks struct {
	Words string
	Code  string
	Plan  bool
	Lab   bool
}

// StudentHome is a student's page in a class.
type StudentHome struct {
	// Clock is the countdown of the lesson's phase, while the student
	// waits (a board shows its own).
	Clock    *PhaseClock
	Code     string
	NextURL  string // the waiting page's poll: has the next round begun?
	Nickname string
	Board    *Board
	History  []HistoryRow
	Waiting  string
	// Asks is what the lesson's phase without a game asks of the
	// students, when it is at one.
	Asks  PhaseAsks
	Skunk *SkunkBoard
	// ChartsURL, once the student has played, links their charts.
	ChartsURL string
	// SharedName, in anonymous mode, is the generated name the projector
	// and classmates see for this student.
	SharedName string
	// RejoinCode gets the student back to their seat on another device.
	RejoinCode string
	// MyDataURL is everything stored about the student, to download.
	MyDataURL string
	// Homework are the class's assignments, newest first.
	Homework []StudentHomework
	// Progress is the student's play day by day (nil before any analysed
	// decision).
	Progress *ProgressView
}

// ProgressView is a student's play day by day in plain words: a line a
// day, and the change since the first day (Better: fewer chances given
// away).
type ProgressView struct {
	Heading string
	Days    []string
	Sure    []string // how sure each day's figure is, for the student on asking
	Change  string
	Better  bool
}

// StudentCharts is a student's play beside the class's.
type StudentCharts struct {
	Code, Nickname, BackURL string
	Charts                  []Chart
	// NextURL asks whether the student's next match has begun.
	NextURL string
}

// HistoryRow is one finished match in a student's list.
type HistoryRow struct {
	URL, Title, Result string
}

// Board is the play area of a match, refreshed live.
type Board struct {
	// Clock is the countdown of the class's lesson phase, if the teacher
	// set one.
	Clock *PhaseClock
	// Warning: one more time-out forfeits the match.
	Warning string
	// TimedOut tells the viewer their last turn passed on a time-out.
	TimedOut string
	// ToMove names the player to move; Won: the viewer won.
	ToMove string
	Won    bool
	// Forfeited: the viewer lost the match on time-outs, not on the dice.
	Forfeited bool
	// Ended: the teacher ended the match (no word of encouragement).
	Ended bool
	// Game is the game's name in forms (pig, hog...).
	Game       string
	MatchID    int64
	Seq        int
	Title      string
	Commitment string
	// Fingerprint is the start of Commitment, enough to recognise it on a
	// board; CheckDiceURL is where the dice are checked (the verify page).
	Fingerprint, CheckDiceURL string
	Players                   []BoardPlayer
	YourTurn                  bool
	Over                      bool
	Paused                    bool
	TurnTotal                 int
	// HasTurnTotal is false in Hog, which has one throw a turn.
	HasTurnTotal bool
	// LastThrow is the last throw's pieces, drawn on the board.
	LastThrow []ThrownPiece
	Announce  string
	// Heard is what the screen reader's live region says: the last moves,
	// whose turn it is, and, once the match is over, how it ended (issue
	// 44: the last throw alone missed the end).
	Heard      string
	Actions    []ActionButton
	Recent     []string
	DeadlineAt int64 // Unix milliseconds; 0 for none
	Deadline   string
	// DeadlineLeft and DeadlineHurry are the countdown's words, {n} the
	// seconds left: the viewer's own, or the player's to move.
	DeadlineLeft, DeadlineHurry string
	Result                      string
	ActURL                      string
	BoardURL                    string
	ReviewURL                   string
	Error                       string
	// Approximate says the optimal bot plays more than two seats without
	// their exact table (see play.Advise).
	Approximate bool
	// Preparing: a perfect-play bot is to move and waits for its table,
	// being solved for a kind of round not played before.
	Preparing bool
	// NextURL, on a finished class match, asks whether the student's next
	// match or game has begun (204 until it has).
	NextURL string
	// Asks, on a finished class match, is what the lesson's phase asks
	// now, when it is at a phase without a game: the result stays, and
	// the way on is beside it (issue 81).
	Asks PhaseAsks
	// HowTo is the game's rules in a few lines, shown open until the
	// viewer's first move of the match.
	HowTo     []string
	HowToOpen bool
	// InClass: a class's match (not practice); ClassCode is its class's
	// code.
	InClass   bool
	ClassCode string
	// ClassNextURL, on a practice match a student started from a class,
	// asks whether the class has a new match for them (the page moves
	// there by itself).
	ClassNextURL string
	// Table is how a table's device enters a throw, nil for a match whose
	// dice the seed throws, or while a bot at the table is to throw.
	Table *TableEntry
	// AtTable: the match is played at a table, its board read by all its
	// players on one device.
	AtTable bool
	// TableQueue, at a table whoever is to move, names the device's queue
	// of entries (app.js): the address they are sent to.
	TableQueue string
	// Arm is the viewer's arm of the experiment "Decide before you roll"
	// (free or committed; "" outside it), said on the board. Plan: a
	// committed player's turn not begun, set by how far to roll (from
	// PlanMin to PlanMax) in place of the buttons; PlanLast is the
	// player's plan of their last turn, 0 before their first.
	Arm                        string
	Plan                       bool
	PlanMin, PlanMax, PlanLast int
}

// TableEntry is how a table's device enters the turn of the player to
// move (issue 45): Board.Actions hold the decisions without a throw
// (Hold); a throw (Throw: roll, or dice in Hog) is entered as its pieces.
type TableEntry struct {
	EnterURL string
	Throw    string // the throw's action: "roll", or "dice" (its count is the faces typed)
	// Ask asks what landed; Send sends the pieces picked.
	Ask, Send string
	// Pieces are the throw's pieces with the marks each can show: one
	// piece is entered with one tap.
	Pieces []TablePiece
	// Typed: the pieces are typed (Hog: as many dice as were thrown),
	// TypedLabel says how.
	Typed      bool
	TypedLabel string
	// Touching is the throw every piece shows at once ("7 7": pigs that
	// touch), TouchingLabel its name; "" for a game without.
	Touching, TouchingLabel string
	// RowLabel asks for a whole turn in one row, as a paper score sheet
	// has it (the throws, then h for a hold); RowSend sends it.
	RowLabel, RowSend string
	// State is the table as the device plays on while the network is
	// down (JSON: the seats, the scores, the seq, what each throw does;
	// app.js), and Words its words with {name}, {faces} and {n} to fill
	// in (JSON).
	State, Words string
	// Last says the last throw entered, which may be entered again
	// until the next decision; "" when the last event is not one.
	Last string
}

// TablePiece is one piece of a throw to enter, and what it can show.
type TablePiece struct {
	Legend string
	Marks  []TableMark
}

// TableMark is one mark a piece can show, drawn as the board draws it.
type TableMark struct {
	Value int
	Piece ThrownPiece
}

// BoardPlayer is one seat on the board.
type BoardPlayer struct {
	Seat   int // the player's seat (a table lists its players in playing order)
	Name   string
	Mark   string // "(you)" beside the viewer's own nickname
	Score  int
	ToMove bool
	You    bool
	Out    bool
}

// ActionButton is one action form.
type ActionButton struct {
	Action, Label, Key string
	Primary            bool
}

// HomeworkRow is one assignment on the dashboard: its title and due
// time, what each student did of it, and its controls (close or reopen,
// move the due time: DueValue is a day later).
type HomeworkRow struct {
	Title, Due, Summary       string
	Closed                    bool
	CloseURL, OpenURL, DueURL string
	DueValue                  string
	Students                  []HomeworkStudent
}

// HomeworkStudent is what one student did of an assignment.
type HomeworkStudent struct {
	Name, Done string
	Finished   bool
}

// StudentHomework is one assignment on a student's page: what they did of
// it and the button that plays it (a game being played goes on).
type StudentHomework struct {
	Title, Due, Done, PlayURL string
	Closed, Finished, Playing bool
}

// DayRow is one day of a class: its date, the lesson plan it used (""
// for none), what was played, and whether it is today.
type DayRow struct {
	Date, Lesson, Played string
	Today                bool
}

// StudentAdmin is what a teacher may do about one student: show their
// rejoin code (a student still in the class) and renew it, download
// everything stored about them, erase them (asking first).
type StudentAdmin struct {
	Progress             *ProgressView // the student's play day by day
	Notice               string        // what the teacher's last action did
	Name                 string
	RejoinCode, RenewURL string
	DataURL, EraseURL    string
	// ExtraURL, for a student still in the class, sets their extra time
	// on each per-roll deadline (ExtraSeconds, 0 for none).
	ExtraURL     string
	ExtraSeconds int
}

// TeacherStudent is the teacher's page of a student with no match yet.
type TeacherStudent struct {
	Name, BackURL string
	Admin         StudentAdmin
}

// MysteryReview is one mystery bot on a match's review.
type MysteryReview struct {
	// Ask asks the student which strength the bot played at; Choices are
	// the strengths to pick from (value and words), posted to GuessURL
	// with Seat. Until the student has guessed nothing else is shown.
	Ask      string
	Choices  []Choice
	GuessURL string
	Seat     int
	// Verdict says the student's guess and whether it was right (the
	// teacher reads the students' guesses); Trail what the bot's moves
	// ruled out, decision by decision; Reveal the strength it played at.
	Verdict []string
	Right   bool
	Trail   []string
	Reveal  string
}

// Privacy is the page of what pigclass stores: each table with its
// columns in plain words, and how long a class is kept on this server.
type Privacy struct {
	Tables []PrivacyTable
	Kept   string
	Where  string // where the data lives: a SQLite file, or a district's Postgres
	// District says, on a district's Postgres, that the file the
	// introduction names is the district's database there ("" on SQLite).
	District string
	// ErasedDistrict says what an erasure leaves on a district's Postgres
	// ("" on SQLite).
	ErasedDistrict string
}

// PrivacyTable is one table of the database.
type PrivacyTable struct {
	Name, About string
	Columns     []PrivacyColumn
}

// PrivacyColumn is one column and what it holds.
type PrivacyColumn struct{ Name, Means string }

// Review is the after-match page: each of the student's decisions beside
// hold-at-20 and optimal play.
type Review struct {
	// Student, on the teacher's look at a student's match, is the
	// student's nickname; Others lists their matches; Admin is what the
	// teacher may do about the student.
	Student string
	Admin   *StudentAdmin
	// Mysteries are the match's mystery bots, once the seed that drew
	// their strengths is published.
	Mysteries []MysteryReview
	Others    []HistoryRow
	// InClass: a class's match (not practice).
	InClass bool
	Title   string
	Result  string
	Rows    []ReviewRow
	// TotalCost is the chance of winning the student's choices gave away
	// in the match, in percent; PerDecision the average per decision in
	// percentage points; Decisions how many were analysed.
	TotalCost string
	// Plain says the same in one sentence a 12-year-old reads (about one
	// game in N, and where most of it was given away).
	Plain       string
	PerDecision string
	Decisions   int
	// Differs are the decisions where the student chose other than
	// perfect play: the review's cards, readable on a phone. Patterns are
	// the same choice made against perfect play's three times or more,
	// said once with a count (their cards under them); Differs then holds
	// the others.
	Differs  []ReviewRow
	Patterns []ReviewPattern
	// TwoPlayers: the student had one opponent ("your opponent", not "the
	// leader of the others").
	TwoPlayers bool
	// Hog: the game has no turn total.
	Hog bool
	// Pieces names the game's pieces as a column's header ("Dice",
	// "Pigs"): the words are the piece's (piece.<name>.pieces).
	Pieces string
	Seed   string
	// SeedLater, when set, says why the seed is not shown yet (other
	// matches still play with the same dice); Seed is then empty.
	SeedLater  string
	Commitment string
	RecordURL  string
	VerifyURL  string
	BackURL    string
	Analysed   bool
	Timeline   Chart
	// Approximate: more than two players without their exact table, the
	// chances read from an approximation (see play.Advise).
	Approximate bool
	// Pending: some of the decisions' analysis is on its way (their
	// table is being solved).
	Pending bool
	// NextURL, for a class match, asks whether the next round has begun.
	NextURL string
}

// ReviewRow is one decision.
type ReviewRow struct {
	N                            int
	Turn                         int
	Score, Opponent, TurnTotal   int
	Action, Faces, EV, Best      string
	Before, After, Cost          string
	AgreesOptimal, AgreesEV, Bot bool
}

// DiffersCount is how many decisions were not perfect play's, in patterns
// or alone.
func (v Review) DiffersCount() int {
	n := len(v.Differs)
	for _, p := range v.Patterns {
		n += len(p.Cards)
	}
	return n
}

// ReviewPattern is one repeated choice of a review, in words, and its
// decisions.
type ReviewPattern struct {
	Text  string
	Cards []ReviewRow
}

// ErrorPage is a page for a request that cannot be served.
type ErrorPage struct {
	Status  int
	Message string
}

// Chart is one chart: an ECharts option built in Go, a caption that says
// what to look for, and the same data as a table.
type Chart struct {
	Key     string // stable name, e.g. "hold-points"
	ID      string // the fixed DOM id
	Title   string
	Caption string
	// Finding is what a test of the data says (a chi-square test's
	// outcome): shown under the title everywhere, the shared screen too,
	// where the caption is left out.
	Finding string
	Option  string // ECharts option, JSON
	Height  string
	Table   DataTable
	Empty   string // shown instead when there is no data yet
	// Pending says the data is being computed: a page that shows the
	// chart asks again every few seconds until it is drawn.
	Pending bool
}

// anyPending reports whether one of cs is still being computed.
func anyPending(cs []Chart) bool {
	for _, c := range cs {
		if c.Pending {
			return true
		}
	}
	return false
}

// DataTable is a chart's table alternative.
type DataTable struct {
	Headers []string
	Rows    [][]string
}

// LessonView is the lesson a class follows, at its current phase.
type LessonView struct {
	Code      string
	Title     string
	Level     string
	Minutes   int
	Goals     []string
	Maths     []string
	Phase     int // from 0
	Phases    int
	PhaseName string
	Setup     string
	// Game is what the phase plays: a game's name, "skunk" or "none".
	Game string
	// TablesURL, for a phase played at tables, opens the tables page
	// with its game, target and bot picked.
	TablesURL string
	// Student is what the students' phones open in a phase without a
	// game (lessons.Phase.Student).
	Student string
	Prompts []string
	Charts  []string
	// Started: the phase has been started (its round or game played, or
	// begun). StartLabel and NextLabel name starting this phase and the
	// next ("Start phase 2: Play the rule of thumb").
	Started bool
	// Chosen: the teacher has just chosen this plan for the class; its
	// first phase is not started.
	Chosen bool
	// BackLabel names starting the phase before (none for the first).
	StartLabel, NextLabel, BackLabel string
	// Left says the class left the lesson for a round of the teacher's
	// own: the panel says so (and where the lesson waits) instead of the
	// phase's questions; the projector shows the round.
	Left string
	// Clock is the phase's countdown, if the teacher set one; the panel
	// sets and stops it at CountdownURL.
	Clock        *PhaseClock
	CountdownURL string
}

// PhaseClock is the countdown a teacher set for a lesson's phase, as
// every screen shows it: its words when drawn, and what app.js needs to
// count down from there by the device's own clock (the time left, not
// the time it ends, so a phone whose clock is wrong counts right).
type PhaseClock struct {
	// LeftMS is the time left when the page was drawn, in milliseconds
	// (0: over).
	LeftMS int64
	// Text is the words when drawn; Left the words with {t} for the time
	// left (4:05), Over once it is over.
	Text, Left, Over string
}

// SkunkBoard is whole-class Skunk as the projector, the teacher and a
// student see it.
type SkunkBoard struct {
	// RecordURL, once the game is no longer played, is its signed record
	// (with the seed) for verify.
	RecordURL  string
	Code       string
	Letters    []SkunkLetter
	Round      int // from 1
	Rounds     int
	RoundTotal int
	LastFaces  []int
	Announce   string
	Standing   []string
	Sitting    int
	Leaders    []SkunkScore
	Over       bool
	Winners    string
	Rolls      int    // rolls so far in the game
	Moment     string // round and roll of the round: a sit answers this moment
	Teacher    bool
	You        *SkunkYou
	PollURL    string // the board's poll, with the version it shows
	// Projector: drawn for the projector (large); with Teacher, the roll
	// and end controls are there.
	Projector bool
}

// SkunkLetter is one round's letter, done or to come.
type SkunkLetter struct {
	Char string
	Done bool
}

// SkunkScore is one line of the leader board.
type SkunkScore struct {
	Name  string
	Score int
}

// SkunkYou is a student's own state in Skunk.
type SkunkYou struct {
	Standing bool
	Score    int
	SitURL   string
}

// Verify is the verify page: paste a match record, see whether every roll
// and the result check out.
type Verify struct {
	Record Field
	// OK says the record checks out in full: dice, moves and this
	// server's signature. Summary says so or not in a sentence; Checks
	// are the three findings.
	OK      bool
	Summary string
	Checks  []Check
	// Fingerprint and PublicKey are this server's record key.
	Fingerprint, PublicKey string
	// Detail says what does not check out (the event, the field, the
	// values); Technical is what only the JSON parser or the rules engine
	// can say, in its own English, shown as such.
	Detail, Technical string
	// NextURL, under a class's address, asks whether its next round has
	// begun for the student.
	NextURL string
}

// Step is one step of a lesson: a button's words and where it posts.
type Step struct {
	Label, URL string
	// Start: the step starts the current phase (not the next).
	Start bool
}

// Check is one finding of the verify page: what was checked (dice, moves,
// signature), whether it holds, and in words.
type Check struct {
	Name string
	OK   bool
	Text string
}

// Glossary is the page that says what each column of each CSV file means.
type Glossary struct {
	Files []GlossaryFile
}

// GlossaryFile is one file in the glossary.
type GlossaryFile struct {
	Name, About string
	Columns     []GlossaryColumn
}

// GlossaryColumn is one column: its name, what it holds (the choices
// as the file writes them), whether it may be empty, what it means.
type GlossaryColumn struct {
	Name, Kind, Choices, Optional, Means string
}

// Export is one CSV download on the dashboard.
type Export struct {
	Name, URL, ExcelURL, About string
	// Day, for the file of today, says so; UnitURL is then the whole
	// unit's.
	Day, UnitURL string
}

// Confirm asks before an action that cannot be undone.
type Confirm struct {
	Code, Title, Message string
	Action, Button       string // the post that does it
	CancelURL            string
	Danger               bool
	// Before, at BeforeURL, is what to do first ("Download their data
	// first"), "" for nothing.
	Before, BeforeURL string
}

// Results is the podium of a round, for the projector.
type Results struct {
	Code    string
	Round   int
	Title   string
	Playing int // matches still being played
	Awards  []Award
	BackURL string
	// Approximate counts the students' decisions of the round analysed
	// approximately, which the best decision-maker and the luckiest dice
	// mix with exact ones.
	Approximate int
	// Heading, for a podium of a day or of the unit, says which (else the
	// round's heading); Scopes link the last round's, today's and the
	// unit's podiums (the teacher's page), the shown one selected.
	Heading string
	Scopes  []Choice
}

// Award is one place on the podium: Names are everyone who shares it
// (Tied of them), each drawn isolated in its own direction.
type Award struct {
	Label, Value string
	Names        []string
	Tied         int
	More         string // "and N more", when the tie is longer than Names
}

// isolated draws names one after the other, a comma between two, each in
// its own direction (dir="auto"), so that a name that mixes directions
// does not take a comma or its neighbour with it.
func isolated(names []string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		for i, n := range names {
			sep := ""
			if i > 0 {
				sep = ", "
			}
			if _, err := io.WriteString(w, sep+`<span dir="auto">`+html.EscapeString(n)+`</span>`); err != nil {
				return err
			}
		}
		return nil
	})
}

// homeworkButton is the words' key of an assignment's button: back to
// the game being played, a game, or once what is due is played, a game
// again for practice.
func homeworkButton(h StudentHomework) string {
	switch {
	case h.Playing:
		return "homework.student.resume"
	case h.Finished:
		return "homework.student.again"
	}
	return "homework.student.play"
}

// RT is a review's message in the request's language (ReviewSaid).
func RT(ctx context.Context, v Review, id string, args ...any) string {
	return ReviewSaid(i18n.From(ctx), v.Student, id, args...)
}

// RN is RT for a message of plural forms, by count (its Count).
func RN(ctx context.Context, v Review, id string, count int, args ...any) string {
	l := i18n.From(ctx)
	if v.Student != "" {
		return l.N("review_of."+id, count, append(args, "Name", v.Student)...)
	}
	return l.N("review."+id, count, args...)
}

// ReviewSaid is a review's message: the student's own ("review.ID"), or,
// on the teacher's look at student of's match, the same said of them in
// the third person ("review_of.ID", their name as Name).
func ReviewSaid(l *i18n.Localizer, of, id string, args ...any) string {
	if of != "" {
		return l.T("review_of."+id, append(args, "Name", of)...)
	}
	return l.T("review."+id, args...)
}

// Help is the teacher's guide (/help): its sections in the reader's
// language, with the lesson plans the server has.
type Help struct {
	Sections []HelpSection
}

// HelpSection is one section of the guide: its anchor (the page's
// address#ID), heading and paragraphs, a picture of the screen it speaks
// of, the lesson plans when it lists them, and where to read more.
type HelpSection struct {
	ID, Heading string
	Paras       []string
	Picture     *HelpPicture
	Lessons     []string
	Links       []HelpLink
}

// HelpPicture is a picture of a screen, served from static/.
type HelpPicture struct {
	Src, Alt      string
	Width, Height int
}

// HelpLink is an address the guide points to and its words.
type HelpLink struct{ Label, URL string }

// RosterPreview is an uploaded class list, read and checked before
// anything is stored: each group of names (a OneRoster export's classes,
// or the one list) with what adding each name does, and the rows that
// could not be read.
type RosterPreview struct {
	Code     string
	Refusal  string
	Problems []string
	Groups   []RosterGroup
}

// RosterGroup is one group of an uploaded list: its title ("" for a plain
// list), its rows, how many are new, and the names to post to add them.
type RosterGroup struct {
	Title string
	Rows  []RosterRow
	New   int
	Names []string
}

// RosterRow is one name of an uploaded list: where it was read, and what
// adding it does (Kind: new, there, twice, looks, bad, removed).
type RosterRow struct {
	Name, Where, Kind, Says string
}

// LoginCards is the page of login cards to print: one a student.
type LoginCards struct {
	Code, JoinURL string
	Cards         []LoginCard
}

// LoginCard is a student's card: their name, their rejoin code and a QR
// code (an SVG) of the join address that fills both in.
type LoginCard struct {
	Name, Rejoin string
	QR           templ.Component
}

// LabPage is a student's simulation lab: the question the teacher posed,
// the form to run an experiment, their runs, the path of the run asked
// for, and the class's runs pooled.
type LabPage struct {
	Code, Question string
	Games          int // the form's number of games
	Min, Max       int
	Error          string
	Runs           []LabRunRow
	// Path is the chart of the run asked for: how its share wandered as
	// its games were added (nil for none).
	Path *Chart
	// Class says the class's runs pooled ("" before any).
	Class string
	// Own: the question is the student's own; Posed is the teacher's
	// question ("" for none, or when it is the one asked) and PosedURL
	// its page.
	Own             bool
	Posed, PosedURL string
	// Replay is the command that plays the shown run's games again.
	Replay string
	// Ask is the form to ask a question of one's own (its choices set to
	// the question asked); Fields are the asked question's fields (Label
	// the field's name), which the run's form posts.
	Ask    LabPanel
	Fields []Choice
}

// LabRunRow is one of a student's runs: its games, wins, share, interval,
// seed, and the address that draws its path.
type LabRunRow struct {
	Games, Wins, Share, Interval, Seed, PathURL string
	Shown                                       bool
}

// LabPanel is the dashboard's lab: the question posed ("" for none), the
// runs of it, whether its exact answer is shown, and the form to pose one.
type LabPanel struct {
	Question      string
	Runs          string
	Revealed      bool
	Games         []Choice
	Target        int
	First, Second []Choice
}

// LTIRegister is the registration page of a learning platform (LTI
// Dynamic Registration): the platform's issuer, read from its
// configuration, and what to post to register; or that it is done.
type LTIRegister struct {
	Key       string // the registration address's key
	ConfigURL string // the platform's OpenID configuration
	Token     string // the platform's registration token
	Issuer    string
	ClientID  string // pigclass's client id there, once registered
	Done      bool
	Error     string
	Admin     *LTIAdmin // the address opened by the administrator, not by a platform
}

// LTIAdmin is what an administrator needs to add pigclass to a platform,
// and the platforms it is registered with.
type LTIAdmin struct {
	Register, Login, Launch, Keys string
	Platforms                     []LTIPlatform
}

// LTIPlatform is a platform pigclass is registered with.
type LTIPlatform struct{ Issuer, ClientID, Deployments string }

// LTIDeepLink is the instructor's choice of what a course's link opens.
type LTIDeepLink struct {
	Ticket                     string // the platform's request, signed (server: deepLinkTicket)
	Kind                       string // lesson, homework or class
	Lessons, GameChoices, Bots []Choice
	Target, Games              string
	Graded                     bool
	Error                      string
}

// LTIDeepLinkReturn is the signed link on its way back to the platform.
type LTIDeepLinkReturn struct {
	ReturnURL, JWT, Title string
}

// PlatformPart is the dashboard's part for a class a learning platform's
// link opens: students.csv with the platform's user ids, and the score
// its gradebook column gets ("" when the teacher has no choice: no
// column, or the link's homework).
type PlatformPart struct {
	IDs   string
	Score string // quality or games
	// CodesOpen: the teacher let students join with the class code too;
	// else the course's launches alone come in (issue 79).
	CodesOpen bool
}

// LTIStorage is a page that keeps a launch's state in the platform's
// storage or reads it back: the frame to ask (lti_storage_target), the
// platform's origin, the key and the state; where to go on (put: the
// platform's sign-in; get: the launch again, with its token).
type LTIStorage struct {
	Mode                       string // put or get
	Target, Origin, Key, Value string
	Next, Token                string
}

// LTIContinue is the link that opens a launch's page in a window of its
// own.
type LTIContinue struct{ URL string }
