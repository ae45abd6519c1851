// Package lessons holds pigclass's lesson plans as embedded data files
// (plans/*.lesson, in the format FORMAT.md describes) and the code that
// loads and validates them. It knows nothing of the web app: the caller
// passes the chart keys and figure names it accepts.
package lessons

import (
	"bufio"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"pigclass/sim"
)

//go:embed plans/*.lesson plans/*/*.lesson
var plans embed.FS

// Lesson is one lesson plan.
type Lesson struct {
	Slug    string
	Title   string
	Level   string
	Minutes int
	Goals   []string
	Maths   []string
	Phases  []Phase
	// Translations are the lesson's words in other languages, by
	// language code, from plans/LANG/SLUG.lesson.
	Translations map[string]Text
}

// Text is a lesson's words in one language: everything a person reads,
// nothing the app acts on. Its figures are the same as the English's.
type Text struct {
	Title, Level string
	Goals, Maths []string
	Phases       []PhaseText
}

// PhaseText is a phase's words: its name and its prompts.
type PhaseText struct {
	Name    string
	Prompts []string
}

// In is the lesson's words in a language: the translation, or the
// English of the plan when there is none.
func (l Lesson) In(lang string) Text {
	if t, ok := l.Translations[lang]; ok {
		return t
	}
	t := Text{Title: l.Title, Level: l.Level, Goals: l.Goals, Maths: l.Maths}
	for _, p := range l.Phases {
		t.Phases = append(t.Phases, PhaseText{Name: p.Name, Prompts: p.Prompts})
	}
	return t
}

// Phase is one step of a lesson: the game set-up of its round, the
// teacher's prompts and the charts to show.
type Phase struct {
	Name     string
	Game     string // a sim game name, "skunk" or "none"
	Variant  sim.Variant
	Rounds   int    // Skunk
	Mode     string // "bot" or "pairs"
	Bot      string
	SameSeed bool
	// Arms: the phase's round is one of the experiment "Decide before you
	// roll" (issue 62): each student plays in an arm, free or committed,
	// drawn at random the first time.
	Arms bool
	// Tables: the phase's game is played at tables, with real dice or
	// pigs entered on one device a group (issue 45): it starts no round;
	// the lesson bar opens the tables page with the game picked. Bot, if
	// any, sits at each table.
	Tables bool
	// Student is what the students' phones open in a phase without a
	// game: "plan", the strategy editor; "lab", the simulation lab; ""
	// none (they are told to look at the shared screen).
	Student string
	// Lab is the question the phase poses the class's simulation lab, and
	// whether its exact answer shows (nil: the phase leaves the lab be).
	Lab *Lab
	// LabGames is the games a student's run of the lab starts at in the
	// phase (its form's number: "Run 100 games each"), 0 for the lab's
	// own default.
	LabGames int
	Prompts  []string
	Charts   []string
}

// Lab is a lab question a phase poses: how often First, moving first,
// beats Second in Variant; Reveal shows its exact answer.
type Lab struct {
	Variant       sim.Variant
	First, Second string
	Reveal        bool
}

// Plays reports whether the phase starts a round of a two-player game.
func (p Phase) Plays() bool { return p.Game != "none" && p.Game != "skunk" && !p.Tables }

// AtTables reports whether the phase's game is played at tables.
func (p Phase) AtTables() bool { return p.Tables && p.Game != "none" && p.Game != "skunk" }

// Rules are what a lesson may name: chart keys, figures and a check of
// strategies.
type Rules struct {
	Charts   map[string]bool
	Figures  map[string]bool
	Strategy func(name string, v sim.Variant) error
}

// Load reads and checks every embedded lesson, sorted by slug.
func Load(r Rules) ([]Lesson, error) {
	return LoadFS(plans, "plans", r)
}

// LoadFS reads and checks the *.lesson files in dir of fsys.
func LoadFS(fsys fs.FS, dir string, r Rules) ([]Lesson, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.lesson"))
	if err != nil {
		return nil, err
	}
	// In the order of their numbers (2-... before 10-...), then by name.
	sort.Slice(names, func(i, j int) bool {
		a, b := planNumber(names[i]), planNumber(names[j])
		if a != b {
			return a < b
		}
		return names[i] < names[j]
	})
	var out []Lesson
	for _, name := range names {
		f, err := fsys.Open(name)
		if err != nil {
			return nil, err
		}
		l, err := Parse(path.Join("lessons", name), f, r)
		f.Close()
		if err != nil {
			return nil, err
		}
		l.Slug = strings.TrimSuffix(path.Base(name), ".lesson")
		out = append(out, l)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("lessons: no *.lesson files in %s", dir)
	}
	return out, loadTranslations(fsys, dir, out, r)
}

// planNumber is the number a plan's file name begins with (10 for
// 10-how-sure-is-a-simulation.lesson), 0 for none.
func planNumber(name string) int {
	digits, _, _ := strings.Cut(path.Base(name), "-")
	n, _ := strconv.Atoi(digits)
	return n
}

// loadTranslations reads dir/LANG/SLUG.lesson for every language
// directory and checks each against its English plan: the same goals,
// maths paragraphs, phases and prompts, each naming the same figures.
func loadTranslations(fsys fs.FS, dir string, ls []Lesson, r Rules) error {
	names, err := fs.Glob(fsys, path.Join(dir, "*", "*.lesson"))
	if err != nil {
		return err
	}
	bySlug := map[string]*Lesson{}
	for i := range ls {
		bySlug[ls[i].Slug] = &ls[i]
	}
	for _, name := range names {
		lang := path.Base(path.Dir(name))
		slug := strings.TrimSuffix(path.Base(name), ".lesson")
		file := path.Join("lessons", name)
		l, ok := bySlug[slug]
		if !ok {
			return fmt.Errorf("%s: no English plan %s.lesson to translate", file, slug)
		}
		f, err := fsys.Open(name)
		if err != nil {
			return err
		}
		t, err := ParseText(file, f, r)
		f.Close()
		if err != nil {
			return err
		}
		if err := matches(file, *l, t); err != nil {
			return err
		}
		if l.Translations == nil {
			l.Translations = map[string]Text{}
		}
		l.Translations[lang] = t
	}
	return nil
}

// keyValue reads one line of a plan or a translation: its key and value,
// or what is wrong with it (no "key: value", an unknown figure); skip for
// a blank line or a comment.
func keyValue(line string, r Rules) (key, value, problem string, skip bool) {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return "", "", "", true
	}
	key, value, ok := strings.Cut(line, ":")
	key, value = strings.TrimSpace(key), strings.TrimSpace(value)
	if !ok || value == "" {
		return key, value, "write key: value (see lessons/FORMAT.md)", false
	}
	for _, m := range figureRE.FindAllStringSubmatch(value, -1) {
		if !r.Figures[m[1]] {
			return key, value, fmt.Sprintf("unknown figure {%s}: use one of %s", m[1], keys(r.Figures)), false
		}
	}
	return key, value, "", false
}

// ParseText reads a translation: title, level, goal, maths, then per
// phase its name and prompts, in the order of the English plan.
func ParseText(file string, src io.Reader, r Rules) (Text, error) {
	var t Text
	sc := bufio.NewScanner(src)
	n := 0
	for sc.Scan() {
		n++
		key, value, problem, skip := keyValue(sc.Text(), r)
		if skip {
			continue
		}
		if problem != "" {
			return t, &lineError{file, n, problem}
		}
		switch {
		case key == "title" && len(t.Phases) == 0:
			t.Title = value
		case key == "level" && len(t.Phases) == 0:
			t.Level = value
		case key == "goal" && len(t.Phases) == 0:
			t.Goals = append(t.Goals, value)
		case key == "maths" && len(t.Phases) == 0:
			t.Maths = append(t.Maths, value)
		case key == "phase":
			t.Phases = append(t.Phases, PhaseText{Name: value})
		case key == "prompt" && len(t.Phases) > 0:
			p := &t.Phases[len(t.Phases)-1]
			p.Prompts = append(p.Prompts, value)
		default:
			return t, &lineError{file, n, fmt.Sprintf("%q has no place here: a translation has title, level, goal and maths, then per phase its phase and prompt lines (the rest comes from the English plan)", key)}
		}
	}
	return t, sc.Err()
}

// matches checks a translation against its English plan.
func matches(file string, l Lesson, t Text) error {
	en := l.In("")
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: %s", file, fmt.Sprintf(format, args...))
	}
	switch {
	case t.Title == "" || t.Level == "":
		return bad("the translation needs a title and a level")
	case len(t.Goals) != len(en.Goals):
		return bad("%d goals, but the English plan has %d", len(t.Goals), len(en.Goals))
	case len(t.Maths) != len(en.Maths):
		return bad("%d maths paragraphs, but the English plan has %d", len(t.Maths), len(en.Maths))
	case len(t.Phases) != len(en.Phases):
		return bad("%d phases, but the English plan has %d", len(t.Phases), len(en.Phases))
	}
	for i, m := range t.Maths {
		if !sameFigures(m, en.Maths[i]) {
			return bad("maths %d names figures %v, but the English names %v", i+1, figureNames(m), figureNames(en.Maths[i]))
		}
	}
	for i, p := range t.Phases {
		if len(p.Prompts) != len(en.Phases[i].Prompts) {
			return bad("phase %d (%s): %d prompts, but the English plan has %d", i+1, p.Name, len(p.Prompts), len(en.Phases[i].Prompts))
		}
		for j, pr := range p.Prompts {
			if !sameFigures(pr, en.Phases[i].Prompts[j]) {
				return bad("phase %d prompt %d names figures %v, but the English names %v", i+1, j+1, figureNames(pr), figureNames(en.Phases[i].Prompts[j]))
			}
		}
	}
	return nil
}

func figureNames(s string) []string {
	var out []string
	for _, m := range figureRE.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	sort.Strings(out)
	return out
}

func sameFigures(a, b string) bool {
	return strings.Join(figureNames(a), " ") == strings.Join(figureNames(b), " ")
}

// lineError names the file and line of a problem.
type lineError struct {
	file string
	line int
	msg  string
}

func (e *lineError) Error() string { return fmt.Sprintf("%s:%d: %s", e.file, e.line, e.msg) }

var figureRE = regexp.MustCompile(`\{([a-z0-9.]+)\}`)

// firstTime reports whether key is new to set, and notes it.
func firstTime(set map[string]bool, key string) bool {
	if set[key] {
		return false
	}
	set[key] = true
	return true
}

// pick returns a if cond, else b.
func pick[T any](cond bool, a, b T) T {
	if cond {
		return a
	}
	return b
}

// setHeader sets one of the lesson's own keys (before its phases), and
// says what is wrong with the value, if anything.
func setHeader(l *Lesson, key, value string) string {
	switch key {
	case "title":
		l.Title = value
	case "level":
		l.Level = value
	case "minutes":
		m, err := strconv.Atoi(value)
		if err != nil || m < 5 || m > 180 {
			return fmt.Sprintf("minutes %q: a whole number from 5 to 180", value)
		}
		l.Minutes = m
	case "goal":
		l.Goals = append(l.Goals, value)
	case "maths":
		l.Maths = append(l.Maths, value)
	}
	return ""
}

// incomplete says what a lesson read to its end lacks, if anything.
func incomplete(l *Lesson) string {
	switch {
	case l.Title == "":
		return "the lesson has no title"
	case l.Level == "" || l.Minutes == 0:
		return "the lesson needs a level and minutes"
	case len(l.Goals) == 0 || len(l.Maths) == 0:
		return "the lesson needs at least one goal and one maths paragraph"
	case len(l.Phases) == 0:
		return "the lesson has no phase"
	}
	return ""
}

// Parse reads one lesson; the error names the file and line and says what
// is allowed.
func Parse(file string, src io.Reader, r Rules) (Lesson, error) {
	var l Lesson
	var p *Phase
	seen := map[string]bool{}
	phaseSeen := map[string]bool{}
	sc := bufio.NewScanner(src)
	n := 0
	fail := func(format string, args ...any) (Lesson, error) {
		return Lesson{}, &lineError{file, n, fmt.Sprintf(format, args...)}
	}
	for sc.Scan() {
		n++
		key, value, problem, skip := keyValue(sc.Text(), r)
		if skip {
			continue
		}
		if problem != "" {
			return fail("%s", problem)
		}
		once := func() bool { return firstTime(pick(p == nil, seen, phaseSeen), key) }
		switch key {
		case "title", "level", "minutes", "goal", "maths":
			if p != nil {
				return fail("%s belongs before the first phase", key)
			}
			if key != "goal" && key != "maths" && !once() {
				return fail("%s is given twice", key)
			}
			if msg := setHeader(&l, key, value); msg != "" {
				return fail("%s", msg)
			}
		case "phase":
			if err := finishPhase(p, r); err != nil {
				return fail("phase %q ends here: %v", p.Name, err)
			}
			l.Phases = append(l.Phases, Phase{Name: value, Rounds: sim.DefaultSkunkRounds, Variant: sim.Standard(sim.Pig)})
			p = &l.Phases[len(l.Phases)-1]
			phaseSeen = map[string]bool{}
		default:
			if p == nil {
				return fail("unknown key %q: a lesson starts with title, level, minutes, goal, maths, then phase", key)
			}
			if key != "prompt" && !once() {
				return fail("%s is given twice in phase %q", key, p.Name)
			}
			if msg := setPhase(p, key, value); msg != "" {
				return fail("%s", msg)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return Lesson{}, fmt.Errorf("%s: %w", file, err)
	}
	n++
	if msg := incomplete(&l); msg != "" {
		return fail("%s", msg)
	}
	if err := finishPhase(p, r); err != nil {
		return fail("phase %q: %v", p.Name, err)
	}
	return l, nil
}

// setPhase applies one key of a phase; it returns what is wrong, if anything.
func setPhase(p *Phase, key, value string) string {
	switch key {
	case "game":
		if value == "skunk" || value == "none" {
			p.Game = value
			return ""
		}
		g, err := sim.ParseGame(value)
		if err != nil {
			return "game " + strconv.Quote(value) + ": use " + sim.GameNames() + ", skunk or none"
		}
		p.Game = value
		target, dice, seats := p.Variant.Target, p.Variant.MaxDice, p.Variant.Seats
		p.Variant = sim.Standard(g)
		p.Variant.Target, p.Variant.Seats = target, seats
		if dice != 0 {
			p.Variant.MaxDice = dice
		}
	case "target":
		t, err := strconv.Atoi(value)
		if err != nil || t < sim.MinTarget || t > 200 {
			return fmt.Sprintf("target %q: a whole number from %d to 200", value, sim.MinTarget)
		}
		p.Variant.Target = t
	case "max-dice":
		m, err := strconv.Atoi(value)
		if err != nil || m < 1 || m > sim.MaxDiceLimit {
			return fmt.Sprintf("max-dice %q: a whole number from 1 to %d", value, sim.MaxDiceLimit)
		}
		p.Variant.MaxDice = m
	case "equal-turns", "same-seed", "tables", "arms":
		return setSwitch(p, key, value)
	case "seats":
		n, err := strconv.Atoi(value)
		if err != nil || n < sim.MinSeats || n > sim.MaxSeats {
			return fmt.Sprintf("seats %q: a whole number from %d to %d", value, sim.MinSeats, sim.MaxSeats)
		}
		p.Variant.Seats = n
	case "rounds":
		r, err := strconv.Atoi(value)
		if err != nil || r < 1 || r > 26 {
			return fmt.Sprintf("rounds %q: a whole number from 1 to 26", value)
		}
		p.Rounds = r
	case "opponents":
		mode, bot, _ := strings.Cut(value, " ")
		if (mode != "bot" && mode != "pairs") || bot == "" {
			return "opponents " + strconv.Quote(value) + ": write bot STRATEGY or pairs STRATEGY"
		}
		p.Mode, p.Bot = mode, strings.TrimSpace(bot)
	case "student":
		if value != "plan" && value != "lab" {
			return "student " + strconv.Quote(value) + ": plan (the phones open the strategy editor) or lab (the simulation lab)"
		}
		p.Student = value
	case "lab":
		return readLab(p, value)
	case "lab-games":
		return readLabGames(p, value)
	case "prompt":
		p.Prompts = append(p.Prompts, value)
	case "charts":
		for _, c := range strings.Split(value, ",") {
			p.Charts = append(p.Charts, strings.TrimSpace(c))
		}
	default:
		return "unknown key " + strconv.Quote(key) + " in a phase: use game, target, max-dice, equal-turns, seats, rounds, opponents, same-seed, tables, student, lab, lab-games, prompt, charts"
	}
	return ""
}

// readLabGames reads the games a phase's lab runs start at.
func readLabGames(p *Phase, value string) string {
	n, err := strconv.Atoi(value)
	if err != nil || n < sim.MinExperiment || n > sim.MaxExperiment {
		return "lab-games " + strconv.Quote(value) + ": the games a run of the lab starts at, from " + strconv.Itoa(sim.MinExperiment) + " to " + strconv.Itoa(sim.MaxExperiment)
	}
	p.LabGames = n
	return ""
}

// readLab reads a phase's lab question: GAME TARGET FIRST SECOND, and
// "reveal" to show its exact answer.
func readLab(p *Phase, value string) string {
	f := strings.Fields(value)
	bad := "lab " + strconv.Quote(value) + ": write GAME TARGET FIRST SECOND (and reveal to show the exact answer), such as pig 100 hold:25 hold:20"
	if len(f) != 4 && (len(f) != 5 || f[4] != "reveal") {
		return bad
	}
	g, err := sim.ParseGame(f[0])
	target, terr := strconv.Atoi(f[1])
	if err != nil || terr != nil {
		return bad
	}
	v := sim.Standard(g)
	v.Target = target
	if err := v.Validate(); err != nil {
		return bad + ": " + err.Error()
	}
	p.Lab = &Lab{Variant: v, First: f[2], Second: f[3], Reveal: len(f) == 5}
	return ""
}

// finishPhase checks a phase once all its lines are read.
func finishPhase(p *Phase, r Rules) error {
	if p == nil {
		return nil
	}
	if p.Game == "" {
		return fmt.Errorf("it has no game (%s, skunk or none)", sim.GameNames())
	}
	if len(p.Prompts) == 0 {
		return fmt.Errorf("it has no prompt for the teacher")
	}
	for _, c := range p.Charts {
		if !r.Charts[c] {
			return fmt.Errorf("unknown chart %q: use one of %s", c, keys(r.Charts))
		}
	}
	if p.Student != "" && p.Game != "none" {
		return fmt.Errorf("student: %s is for a phase without a game (game: none), not %s", p.Student, p.Game)
	}
	if p.Lab != nil && p.Game != "none" {
		return fmt.Errorf("lab: is for a phase without a game (game: none), not %s", p.Game)
	}
	if p.Lab != nil && r.Strategy != nil {
		for _, st := range []string{p.Lab.First, p.Lab.Second} {
			if err := r.Strategy(st, p.Lab.Variant); err != nil {
				return fmt.Errorf("lab: %w", err)
			}
		}
	}
	if p.Arms && (!p.Plays() || p.Variant.Game.ChoosesDice()) {
		return fmt.Errorf("arms: yes is for a round of a game of rolling and holding (not Hog, not at tables), not %s", p.Game)
	}
	if p.Tables && !p.AtTables() {
		return fmt.Errorf("tables: yes is for a game played with dice or pigs (%s), not %s", sim.GameNames(), p.Game)
	}
	if p.AtTables() {
		return finishTables(p, r)
	}
	if !p.Plays() {
		return nil
	}
	if p.Variant.Game.ChoosesDice() && p.Variant.MaxDice == 0 {
		p.Variant.MaxDice = p.Variant.Game.Rules().MaxPieces
	}
	if err := p.Variant.Validate(); err != nil {
		return err
	}
	if p.Mode == "" {
		return fmt.Errorf("it plays %s but has no opponents (bot STRATEGY or pairs STRATEGY)", p.Game)
	}
	if r.Strategy != nil {
		if err := r.Strategy(p.Bot, p.Variant); err != nil {
			return fmt.Errorf("opponents: %v", err)
		}
	}
	return nil
}

// setSwitch applies a phase's key of yes or no.
func setSwitch(p *Phase, key, value string) string {
	if value != "yes" && value != "no" {
		return key + " " + strconv.Quote(value) + ": yes or no"
	}
	on := value == "yes"
	switch key {
	case "equal-turns":
		p.Variant.EqualTurns = on
	case "same-seed":
		p.SameSeed = on
	case "arms":
		p.Arms = on
	default:
		p.Tables = on
	}
	return ""
}

// finishTables checks a phase played at tables: its rules, and its bot
// (bot STRATEGY, one at each table; none is no bot).
func finishTables(p *Phase, r Rules) error {
	if p.Variant.Game.ChoosesDice() && p.Variant.MaxDice == 0 {
		p.Variant.MaxDice = p.Variant.Game.Rules().MaxPieces
	}
	if err := p.Variant.Validate(); err != nil {
		return err
	}
	switch {
	case p.Mode == "pairs":
		return fmt.Errorf("opponents: at tables the students play together; write bot STRATEGY for a bot at each table, or nothing")
	case p.Mode == "bot" && r.Strategy != nil:
		if err := r.Strategy(p.Bot, p.Variant); err != nil {
			return fmt.Errorf("opponents: %v", err)
		}
	}
	return nil
}

func keys(m map[string]bool) string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// Fill replaces the {figures} in s with their values.
func Fill(s string, figures map[string]string) string {
	return figureRE.ReplaceAllStringFunc(s, func(m string) string {
		if v, ok := figures[m[1:len(m)-1]]; ok {
			return v
		}
		return m
	})
}
