package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// usageError is a mistake in the command line: main exits with status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// env carries what every subcommand may use.
type env struct {
	ctx    context.Context
	getenv func(string) string
	stdout io.Writer
	stderr io.Writer
}

// command is one subcommand.
type command struct {
	summary string
	run     func(e env, args []string) error
}

// commands lists the subcommands; help is added by run.
var commands = map[string]command{
	"classroom": {"serve a class on this computer's network and open the browser (the default: a double-click)", runClassroom},
	"serve":     {"run the web app where --addr says (this computer alone unless told), as a service does", runServe},
	"simulate":  {"play many games between strategies and print win rates", runSimulate},
	"verify":    {"check every roll and the result of a match record (JSON)", runVerify},
	"solve":     {"solve a game exactly and print the first player's chance", runSolve},
	"advise":    {"print the win probability of every option in one position", runAdvise},
	"duel":      {"print the exact chance that one strategy beats another", runDuel},
	"export":    {"write a class's decisions, matches or students as CSV", runExport},
	"backup":    {"copy the database to a new file, safely while the server runs", runBackup},
	"migrate":   {"move a school's SQLite file into a district's Postgres database", runMigrate},
	"loadtest":  {"play many simulated students against a running server on this machine", runLoadtest},
	"lti":       {"print the addresses a learning platform needs to add pigclass (LTI 1.3), or register one by hand", runLTI},
	"proxyconf": {"print an nginx or HAProxy configuration for a district of several instances", runProxyconf},
	"service":   {"print a systemd unit that runs the web app as a service", runService},
	"version":   {"print the version, the commit it was built from and the Go version", runVersion},
}

// run is the whole program: main only adds the process around it.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	e := env{ctx: ctx, getenv: getenv, stdout: stdout, stderr: stderr}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && !isHelp(args[0]) {
		args = append([]string{"classroom"}, args...) // a classroom start is the default
	}
	name, rest := args[0], args[1:]
	if name == "help" || isHelp(name) {
		return help(stdout)
	}
	c, ok := commands[name]
	if !ok {
		return usagef("unknown command %q: run \"pigclass help\" for the list", name)
	}
	if err := c.run(e, rest); !errors.Is(err, errHelpShown) {
		return err
	}
	return nil
}

func isHelp(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

func help(w io.Writer) error {
	fmt.Fprintln(w, "pigclass: a classroom probability lab built on the dice games Pig and Hog.")
	fmt.Fprintln(w, "\nUsage: pigclass COMMAND [flags]   (pigclass COMMAND -h lists the flags)")
	fmt.Fprintln(w, "\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintf(w, "  %-9s %s\n", "help", "print this list")
	return nil
}

// newFlags returns a flag set that reports errors instead of exiting;
// --help writes its usage to standard output.
func newFlags(e env, name, args string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stdout)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: pigclass %s %s\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses flags that take no arguments after them; a bad flag is a
// usage error, -h is not an error.
func parse(fs *flag.FlagSet, args []string) error {
	if err := parseWithArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badFlags(fs, fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	return nil
}

// parseWithArgs parses flags and leaves the arguments after them. A bad
// flag is said once (the flag package's own words and usage are held
// back), with one line pointing to --help; --help shows the usage.
func parseWithArgs(fs *flag.FlagSet, args []string) error {
	usage, out := fs.Usage, fs.Output()
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.Usage = usage
	fs.SetOutput(out)
	if errors.Is(err, flag.ErrHelp) {
		usage()
		return errHelpShown
	}
	if err != nil {
		return badFlags(fs, err.Error())
	}
	return nil
}

// badFlags is the usage error of a command's flags: what is wrong, and
// where its flags are listed.
func badFlags(fs *flag.FlagSet, what string) error {
	return usagef("%s: %s\nRun \"pigclass %s --help\" for its flags.", fs.Name(), what, fs.Name())
}

// errHelpShown ends a command whose help was asked for; run returns nil.
var errHelpShown = errors.New("help shown")
