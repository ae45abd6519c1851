package templates

// PlanPage is a student's strategy editor (issue 46): the plan saved and
// the three forms to build one, what the plan's chances are, and the
// class's tournament as the student sees it.
type PlanPage struct {
	Code, Nickname, BackURL string
	// For is the game the plan is for ("Pig to 100"), Target its target.
	For    string
	Target int
	// Saved says the plan saved, in words ("" for none); Notice what the
	// last post did; Error what is wrong with the plan posted (the form
	// keeps what was typed).
	Saved, Notice, Error string
	Form                 string // the form shown open: hold, rule or map
	Hold                 Field
	Rule                 []PlanField // hold, behind_by, behind_hold, ahead_by, ahead_hold, end_race
	Map                  [][]Field   // [my score / 10][the other's / 10]
	MapScores            []int       // each row's (and column's) lowest score
	StartURLs            []Choice    // starting points for a map: Value the address, Label its name
	PostURL, JSONURL     string
	Chances              PlanChances
	Tournament           string   // the class's tournament in a sentence ("" for none)
	Row                  []string // the student's own row of the standings, once played
}

// PlanField is one number of a rule: its form name, label and value.
type PlanField struct {
	Name, Label string
	Min, Max    int // what the server takes: a hold from 1 to the target, a gap from 0 to one under it
	Field
}

// PlanChances are a plan's exact chances in words, or that they are being
// worked out (URL set: the fragment polls it).
type PlanChances struct {
	URL   string
	Lines []string
}

// TournamentPage is the teacher's tournament: a form to open one, the
// open one's entries and the button to close them, the duels played, the
// standings.
type TournamentPage struct {
	Code, BackURL, PostURL, CloseURL string
	Status                           string // the tournament in a sentence ("" for none)
	ID                               int64
	Open, Playing                    bool
	LiveURL                          string // while played: the standings' fragment polls it
	Games                            []Choice
	Game, Target, Minutes            Field
	MinTarget, MaxTarget             int      // the targets the server plays
	Bots                             []Choice // Value the bot, Label its name, Selected ticked
	Error                            string
	Headers                          []string
	Standings                        [][]string
}

// TablesPage is the teacher's page of tables (issue 45): the form that
// opens one, and the class's tables.
type TablesPage struct {
	Code, BackURL, PostURL string
	Notice, Error          string
	Games, Bots            []Choice
	Target                 string
	// Students are the roster, ticked for the table posted, each with
	// their place at it as typed.
	Students []TableSeat
	// Newcomers are the players who join the class at the table, a
	// nickname a line, as posted.
	Newcomers string
	Open      []TableRow
	// SheetURL prints a blank score sheet of the game picked; SheetGame
	// is that game, sent with it.
	SheetURL, SheetGame string
}

// TableSheet is a printable score sheet for a table playing on paper:
// the game's rules, a column a player, a row a turn.
type TableSheet struct {
	Title, Rules, HowToWrite string
	// Legend is what each mark of pieces that are not numbered dice
	// stands for ("1 Dot"), to write them as numbers.
	Legend  []string
	BackURL string
	Players int
	Turns   int
}

// TableSeat is a student of the roster on the tables form: ticked to
// play, and their place at the table (OrderLabel names the field).
type TableSeat struct {
	Choice
	Order, OrderLabel string
}

// TableRow is one table of the class: its game, its players with their
// scores, and whether it is over.
type TableRow struct {
	Game    string
	Players []string
	Over    bool
}
