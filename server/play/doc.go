// Package play is the live match: its types (Match, Seat, Event,
// Analysis, Round), the one door every match starts through (Hall.Start,
// with the limits and allowances of every origin: a round, practice,
// homework), moves and the bots' replies, deadlines, the analyses filled
// in when a table is solved, the mystery bot's strengths, and restoring
// what was being played after a restart.
//
// The store is the truth: every change is on disk, written through Log,
// the small interface this package declares and the store implements,
// before it is acknowledged, and Restore rebuilds the live matches from
// the log. A match of a class tells its class (a Host) what changed; the
// hall knows nothing else of classes.
//
// # Who owns what, and the locks
//
//   - Hall.mu (RWMutex) guards the map of live matches. A leaf: held only
//     to read or change the map, never while taking another lock or
//     waiting for the disk.
//   - Hall.waitMu guards the tables that decisions wait for (waiting).
//     A leaf.
//   - Hall.doorMu serializes the door's check of the limits with the
//     count it spends (Start): two starts at once cannot both take the
//     last place. It is held across the check and the spending only,
//     never across a commit; under it Hall.mu is taken to count.
//   - Live.mu serializes the moves of one match and is held across the
//     commit of those moves, so a match's log on disk and in memory
//     never diverge. A move takes only this lock (and, to publish, calls
//     its Host, whose own locks are leaves): students in different
//     matches never wait for each other, and their commits share
//     batches. Ending matches takes their locks in turn, so a move in
//     flight finishes first.
//
// The order, where two are held: doorMu, then mu; Live.mu, then the
// Host's own leaf locks. No lock is held while a table is solved.
//
// Readers take no lock on a match: its snapshot (a *Match) is published
// through an atomic pointer after each committed change.
package play
