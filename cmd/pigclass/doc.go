// Command pigclass is the classroom probability lab: the web app, the
// solver and the simulator, in one program. This is its administrator's
// guide (`go doc ./cmd/pigclass` prints it): running it for a classroom, a
// school or a district, every command and flag, backups, how long a class
// is kept, privacy, a proxy, Postgres, metrics and a release. The teacher's
// guide is in the app, at /help, in every language the app speaks; the
// developer's guide is server/DEVELOPING.md.
//
// # Running it for a classroom
//
// A teacher downloads the release's archive for their computer (the
// README lists them), unpacks it and double-clicks `pigclass`; with Go
// installed, from a checkout, `go run ./cmd/pigclass` does the same (it
// compiles for about a minute the first time, in silence). Started so,
// with no command (the command `classroom`), pigclass serves the
// classroom:
//
//   - it listens on every address of this computer at port 8080, or, if
//     another program holds that port, on the next free one of the 19
//     after it, and says so (`--addr` names another address or port);
//   - it works out the addresses other devices can reach it by (IPv4
//     addresses of interfaces that are up, not loopback, not link-local,
//     not a container's or a virtual machine's bridge such as docker0,
//     private ranges first) and takes the first as the address students
//     type, unless `--public-url` names another;
//   - it prints, in words, where students join and where the teacher
//     opens the class, this computer's other addresses, where the classes
//     are kept, that the window must stay open and how to stop it;
//   - it opens the teacher's browser at the front page with the system's
//     own opener (xdg-open, open, the Windows shell), or the program
//     `PIGCLASS_BROWSER` names; not with `--no-browser` or
//     `PIGCLASS_NO_BROWSER=1`, nor where there is no desktop (no DISPLAY or
//     WAYLAND_DISPLAY on Linux, an SSH session);
//   - its database is `pigclass.db` in the folder the system keeps for a
//     user's application data (Go's os.UserConfigDir, then pigclass:
//     `%AppData%\pigclass` on Windows, `~/Library/Application
//     Support/pigclass` on macOS, `~/.config/pigclass` on Linux), with its
//     key `pigclass.db.key` beside it. A `pigclass.db` already beside the
//     program, or else in the working folder (where pigclass put it before
//     the classroom start existed), is used instead, so that no class
//     disappears, and the window says so; `--db` names a file;
//   - a second start while it runs (a second double-click) opens the
//     browser at the one that runs and ends: the running one leaves
//     `pigclass.db.running` beside its database, naming its address, and
//     the second asks that address's /healthz on loopback;
//   - closing the window, Ctrl+C (SIGINT) or SIGTERM (on Windows, the
//     console's close, which Go delivers as SIGTERM) stops it cleanly:
//     requests under way are answered, the writer's last batch is
//     committed, and the next start restores the matches being played.
//
// When no student's device can reach it (it listens on loopback alone,
// or this computer is on no network, so the address is localhost), the
// window and the dashboard say so and what to do, and the shared screen
// shows the code without a localhost address or its QR code; when
// `--public-url` names an address that is not one of this computer's
// (and no `--trusted-proxy` stands in front), the dashboard says students
// may not reach it.
//
// `pigclass serve` is the program as a service or a proxy runs it: it
// listens where `--addr` says, `localhost:8080` unless told, which serves
// this computer alone (to try pigclass, or behind a proxy on the same
// machine), with the database `./pigclass.db`. To serve the classroom's
// network that way, listen on every address and say which one students
// type:
//
//	pigclass serve --addr :8080 --public-url http://10.0.0.5:8080
//
// (10.0.0.5 being this computer's address on the school's network:
// `ip addr` or the network settings say it). `--public-url` is the address
// shown on the dashboard and the shared screen and in the QR code; every
// absolute link is built from it, and the server answers only for its host
// and the addresses it listens on. `go build ./cmd/pigclass` makes a
// single binary, `pigclass`, that needs nothing else: every script, style
// and chart library is inside it, so it works on a school network without
// internet.
//
// Every flag of serve has an environment variable: `PIGCLASS_ADDR`,
// `PIGCLASS_DB`, `PIGCLASS_KEY`, `PIGCLASS_PUBLIC_URL`,
// `PIGCLASS_CODE_PREFIX`, `PIGCLASS_TRUSTED_PROXY`,
// `PIGCLASS_MOVES_PER_SECOND`, `PIGCLASS_RETAIN_DAYS`,
// `PIGCLASS_METRICS_ADDR`, `PIGCLASS_METRICS_HOST`, `PIGCLASS_LOG_FORMAT`,
// `PIGCLASS_LOG_LEVEL` (a flag given wins over its variable); a
// classroom start reads them too, and `PIGCLASS_NO_BROWSER` and
// `PIGCLASS_BROWSER`. The server
// keeps Go's heap under a soft limit of 160 MiB unless `GOMEMLIMIT` says
// otherwise; `PIGCLASS_PPROF=127.0.0.1:6060` serves Go's profiler on that
// loopback address, for a maintainer measuring a load.
//
// # Installing it as a service
//
// On a Linux server with systemd, `pigclass service` prints a unit that runs
// the server as a user of its own (one systemd makes, or `--user NAME`),
// keeps the database and its key in `/var/lib/pigclass` (made by systemd,
// readable by that user alone), restarts it if it fails, and hardens it
// (no new privileges, a read-only system outside its state directory, a
// private `/tmp`, no capability unless `--addr` asks for a port below
// 1024). Every flag after `service` is `serve`'s. As root, from the
// directory you built or downloaded `pigclass` in:
//
//	install -m 755 pigclass /usr/local/bin/pigclass
//	/usr/local/bin/pigclass service --addr :8080 --public-url http://10.0.0.5:8080 > /etc/systemd/system/pigclass.service
//	systemctl daemon-reload
//	systemctl enable --now pigclass
//
// `journalctl -u pigclass` shows its log; `--log-format json` writes it as
// JSON lines for a school's log tools, and `--log-level debug` adds a line a
// request with the route's pattern (`/c/:code/m/:id`), its status and time:
// no log line holds a class code, a token or a secret.
// To move the data elsewhere, keep `--db` inside
// `/var/lib/pigclass` (the unit refuses another place, which the hardened
// service could not write).
//
// # A release stamped with its version
//
// `pigclass version` (and /healthz's `version`) says which build runs: the
// version, or the commit it was built from, to quote in a support request;
// the log says it at start. It names the licence too: pigclass is under
// the MIT licence (the file LICENSE), and the libraries inside it under
// their own (THIRD_PARTY_NOTICES.txt, beside the program in a release).
//
// A release is one command, from a clean checkout:
//
//	.ci/release dist
//
// builds the program for Windows (amd64, arm64), macOS (amd64, arm64) and
// Linux (amd64, arm64, and arm for 32-bit Raspberry Pi OS), without cgo,
// `-trimpath` and stripped, stamped with the version (`VERSION=v1.2.3`, a
// tag at HEAD, or the commit's pseudo-version) and the commit; a zip for
// Windows and a tar.gz for the others, each with the program, README.md,
// LICENSE and THIRD_PARTY_NOTICES.txt; a .deb for each Linux architecture
// (the program in /usr/bin and the unit `pigclass service` writes, enabled
// and started on install); a CycloneDX SBOM for each target; and
// SHA256SUMS. The same commit gives the same bytes (every file's time is
// the commit's); `.ci/check-release` builds it twice, compares, and starts
// the linux/amd64 archive's program from a clean folder. A binary built
// by hand (`go build -buildvcs=true ./cmd/pigclass`) in the checkout knows
// its commit; one built outside a git checkout, or with
// `-buildvcs=false`, knows neither and says `(devel)`.
//
// # Backups
//
//	pigclass backup --db pigclass.db --to pigclass-2026-11-30.db
//
// writes a checked, compact copy (SQLite's `VACUUM INTO`), safely while the
// server runs; it never overwrites a file. Keep the copy on another disk,
// and its key file with it (see "Privacy and safety": without the key a
// restored copy works, but its projector links and rejoin codes change). To
// go back to a copy, stop the server and start it with `--db` naming the
// copy. Backups are copies outside the server: they keep what they held,
// whatever the retention below. Rotate them as the school's policy says
// (for instance, keep the last 14 daily copies: `ls -1t pigclass-*.db |
// tail -n +15 | xargs -r rm --`), and no longer than `--retain-days`. A
// district on Postgres backs up with `pg_dump` (see "A district on one
// Postgres").
//
// # How long a class is kept
//
//   - How long a class is kept: a class and everything in it (its
//     students, rounds, matches, moves, guesses and games of Skunk) is erased
//     `--retain-days` days after its last activity (a student joining, a
//     round or a match starting or ending, a game of Skunk, a guess), with the
//     same erasure as "Delete the class": its rows are overwritten in the file
//     (`secure_delete`) and the WAL scrubbed as for one student. The default, 180 days, keeps a class through a
//     unit, a term's reports and a summer holiday, and erases last school
//     year's classes before the next year begins: a school that must keep
//     results longer downloads the CSV files, or sets a longer time; `0`
//     keeps classes until their teacher deletes them. The dashboard says, under
//     "Delete this class", on which day the class is erased and from which
//     activity; any activity before then moves the day on. Classes stored by
//     a release before this one start their clock at the upgrade (the
//     migration stamps them), not at their last activity, so none is erased
//     the day the new release starts. The server looks once an hour.
//   - What expires: a practice match with no move for an hour ends (and a
//     restart does not rebuild it), and a day after it ended it is deleted with
//     its moves (and its player, once they have no match left); a class that no
//     student joined within 24 hours of its start is deleted.
//
// # Privacy and safety
//
//   - The file. The database, its `-wal` and `-shm` and every backup are
//     readable by the server's user alone (0600, whatever the umask); deleted
//     rows are overwritten (`secure_delete`), so a deleted class leaves no
//     names in the file. The projector key and the students' rejoin codes are
//     derived with the server's own key, `pigclass.db.key` beside the
//     database (0600, made on first start): a copy of the database alone
//     cannot compute them. Keep the key with the database; without it a
//     restored copy works, but its projector links and rejoin codes change.
//     The server refuses to start on a key file others may read (it says to
//     `chmod 600` it) or that git tracks (it says to untrack it and make a
//     new one); `*.key` is in `.gitignore`.
//   - If you ran pigclass from a checkout before December 2026, your
//     `pigclass.db.key` may be the one the repository itself once held, which
//     anyone could read. The server knows that key by its fingerprint and
//     replaces it with a new one on its next start, saying so in its log.
//     What changes: projector links and students' rejoin codes (print them
//     again from each class's dashboard), and the key records are signed with
//     (the fingerprint `/verify` shows); records downloaded before still
//     verify by their own signature, but anyone could have forged one signed
//     with the old key, so trust only records signed with the new one.
//   - The privacy page (`/privacy`, linked from the footer of every page
//     but the projector's) says what pigclass stores, table by table and
//     column by column in plain words, what the server's log holds (no
//     address, code or name: a reverse proxy's access log is where addresses
//     are, rotated by its operator), who can see what, where it lives, how
//     long this server keeps a class and how to get or erase it, in the five
//     languages.
//   - One student's data. The teacher's page of a student (the roster's
//     name) has "Download everything stored about NAME": one JSON file with
//     the student's row of `students.csv`, their matches (`matches.csv`,
//     `match_players.csv`), every decision they made (`decisions.csv`'s
//     columns, Skunk's included) and their guesses of mystery bots. A student
//     downloads the same file from their own page ("Download everything
//     pigclass stores about you"; classmates named as the class shows them).
//     "Erase NAME…" (on that page, and under "Removed") asks first, with the
//     file to download, then erases the student everywhere: their nickname,
//     generated name and device token are overwritten in the file
//     (`secure_delete`) and the WAL is copied in and truncated at once
//     (`wal_checkpoint(TRUNCATE)`), so no copy stays in the database's files
//     while the server runs (a backup made before keeps its copy: deleting it
//     is the school's to do), and their browser is no longer in the class; their
//     matches and moves stay under "erased student 1" (2, 3...), so that
//     classmates' matches replay, the class's charts and files stay whole, and
//     the records of those matches (which name seats, not people) still
//     verify. An erased student cannot be let back in: a new join is a new
//     student.
//   - A class list. A teacher may upload the class's names (a OneRoster 1.2
//     export or a plain list, at most 4 MB and 12 files, 400 names a class;
//     each row checked and shown before anything is stored). Its students
//     are stored like others (students.roster says they came from the
//     list) and take their seat with their rejoin code; the join page shows
//     the list's names to whoever asks with the class's code (a wrong code
//     counts as a guess, as a join does), unless the teacher hides them
//     (the class list card's "Hide the names", classes.list_hidden): its
//     students then type their name and their card's code. A learning
//     platform's class never shows them to a code. The login cards the dashboard
//     prints hold each student's rejoin code, in words and in the QR
//     code's address fragment, which browsers do not send to a server or
//     a proxy.
//   - A removed student's browser cannot join the class again, under any
//     name, until the teacher presses "Let back in" under "Removed".
//   - Teacher pages, students' pages and exports are sent with
//     `Cache-Control: no-store`; a finished match's record goes to its players
//     and its class's teacher only (who may share the file), and in a
//     same-dice round only once every match with those dice is over.
//   - Limits. A device may try 20 wrong join codes or taken names a
//     minute (a name that is taken tells that a student has it: counted, so
//     that a code holder cannot list a class's names). Rejoin codes are
//     counted apart, so that a school behind one address whose students
//     mistype them is not shut out: 10 wrong codes a minute for one student's
//     name (then even the right one waits the minute, and the form says so),
//     100 for a class, 300 for an address; and 10 rejoins a minute with the
//     right code for one student. Only the browser a student's seat left last
//     is remembered (it is told why it was signed out); a class takes
//     60 joins a minute until its teacher presses "Allow more" on the dashboard
//     (the lift lasts until the server restarts); a device may start 10 classes
//     and its network 120 practice matches a minute. A device (its address,
//     an IPv6 device's /64) joins a class under one name in ten minutes, until
//     the teacher allows more: a second name is refused, and the rejoin code
//     is the way back to one's own name on another device. A device that
//     joins under a second name once its ten minutes are past is shown on the
//     dashboard, by both names (the devices are kept in memory only). A player makes at
//     most 8 moves a second, and a match ends after 5,000 events (no honest
//     game comes near). Limits by address believe `X-Forwarded-For` only from
//     a trusted proxy, and never `X-Real-IP`. An unknown class code, a class
//     one has not joined, a match that does not exist and one that is not
//     one's own all answer alike, to the byte and in the reader's own
//     language. Forms from another site
//     (including `Origin: null`) are refused. Every connection has time-outs
//     (headers 10 s, body 30 s, answer 2 min, idle keep-alive 2 min) and
//     headers are limited to 64 KB.
//   - Nicknames are read with the PRECIS nickname profile (RFC 8266):
//     invisible characters (zero-width spaces, direction controls, the
//     byte-order mark), blank-looking ones (a blank Braille cell, the Hangul
//     fillers) and more than two marks on a letter are refused, and so is a
//     name that looks like one already taken in the class, compared by
//     Unicode's confusable skeleton (TS #39: another case, full-width or
//     mathematical letters, a decomposed accent, Cyrillic or Greek letters
//     drawn like Latin ones, 1 for l).
//   - Identity. Every join gives the browser a fresh player token (a
//     cookie's value is never adopted: someone may have planted it); its other
//     classes follow it. The server answers only for its `--public-url`'s host
//     and the addresses it listens on (421 for any other `Host`), so a DNS
//     rebinding page cannot drive it, and every absolute link and QR code is
//     built from `--public-url`.
//   - Broken machines. A database file that cannot be written, a full disk,
//     a damaged file or one written by a newer pigclass stops the start with a
//     message naming the file and what to do, and exit status 1. While serving,
//     a write the disk refuses is answered "Not saved: try again" (503) and the
//     match stays as it was; everything already acknowledged is on disk.
//
// # Behind a reverse proxy
//
// Behind a reverse proxy (nginx terminating HTTPS, say), start pigclass
// with `--trusted-proxy 127.0.0.1` (addresses or networks, separated by
// commas; env `PIGCLASS_TRUSTED_PROXY`). Only then are its
// `X-Forwarded-For` (the client's address, for the limits of "Privacy and
// safety") and
// `X-Forwarded-Proto` (cookies marked Secure under HTTPS) believed; from
// anyone else they are ignored. A page's event stream
// (`/c|t|p/CODE/events`) stays open and says something every 5 s: the
// proxy must pass it on as it comes (pigclass sends
// `X-Accel-Buffering: no`, which nginx obeys; elsewhere turn response
// buffering off for those addresses) with a read timeout above 5 s. A
// proxy that holds the events back costs nothing but speed: the pages
// poll as they did before.
//
// # The files
//
// The dashboard offers seven files (decisions, matches, match_players,
// students, strategies, tournament and experiments) of the class's results
// as CSV, and
// the same again "for Excel" (starting with a byte-order mark, so that Excel on
// Windows reads accents); `pigclass export` writes them from the database.
// They are data, in one format whatever the reader's language: UTF-8, a
// header row, English column names, dot decimals, chances in percent and
// costs in percentage points, times in ISO 8601 with the server's offset
// from UTC beside a local time that spreadsheets read as a date. Seats are
// numbered from 1, the player who moved first; turns and rolls from 1. A
// cell that a spreadsheet would run as a formula starts with an apostrophe.
// In anonymous mode the files carry the generated names; the dashboard
// offers them with the real nicknames too. What every column means is on
// the app's /glossary page, in each language (the same words the files are
// tested against).
//
// # Addresses
//
// Stable addresses: `GET /`, `POST /classes`, `/t/{code}` (teacher),
// `/t/{code}/projector`, `/join`, `/join/{code}`, `POST /join` (which goes on
// to `POST /join/{code}`), `/c/{code}` (student), `/c/{code}/m/{id}` (a
// match of the class), `/c/{code}/charts` (a student beside the class),
// `/c/{code}/verify?match={id}` (a class match's record, checked),
// `/m/{id}` (a practice match; a class match's old `/m/{id}` addresses move to
// `/c/{code}/m/{id}` with 308), `/verify`, `/glossary` (what the CSV columns
// mean), `/privacy` (what pigclass stores, column by column, linked from
// every page's footer), `/help` (the teacher's guide), `/c/{code}/my-data.json` (a student's own data),
// `/t/{code}/students/{id}` (a student's page, for the teacher),
// `/t/{code}/students/{id}/data.json` (one student's data, for the
// teacher), `/c/{code}/m/{id}/record.json` and `/m/{id}/record.json` (a
// match's signed record, which `pigclass verify` reads),
// `/c/{code}/plan.json` (a student's strategy, which `pigclass duel`
// reads), `/t/{code}/tables/sheet` (a score sheet to print),
// `/t/{code}/cards` (the students' login cards, to print), `/t/{code}/decisions.csv`, `/t/{code}/matches.csv`,
// `/t/{code}/match_players.csv`, `/t/{code}/students.csv`,
// `/t/{code}/strategies.csv`, `/t/{code}/tournament.csv`,
// `/t/{code}/experiments.csv`, `/c/{code}/lab` (a student's simulation
// lab), `/c/{code}/privacy` (the privacy page as a class's student reads
// it),
// `/t/{code}/tables` (the class's tables of real dice), `/t/{code}/tournament`
// (the strategy tournament), `/c/{code}/plan` (a student's strategy editor),
// `/c/{code}/events`, `/t/{code}/events`, `/p/{code}/events` (the pages'
// event streams), `/t/{code}/projector/results`, `/p/{code}?key=...` (the read-only
// projector) and `/p/{code}/results`, `/join/{code}/qr.svg`, `POST /lang` (the language switcher),
// `POST /t/{code}/language` (the class's language), `/healthz` (JSON for a
// proxy's health check: `status` (ok, unavailable), `database` (writable,
// not writable, unreachable) and `version`, nothing of the classes (their
// counts are on `--metrics-addr`); 503 when the database is not usable);
// for a learning platform (LTI 1.3), `/lti/register/{key}` (the
// registration address, `pigclass lti` prints it), `/lti/login` and
// `POST /lti/login` (the login initiation), `POST /lti/launch`,
// `/lti/jwks` (pigclass's public keys), `POST /lti/deeplink`,
// `POST /lti/launch/stored` and `/lti/continue/{key}` (a launch in a
// frame that keeps no cookie, above). Every address of a class
// begins with `/c/{code}`, `/t/{code}`, `/p/{code}` or `/join/{code}`.
//
// # Measuring the machine
//
// One pigclass on a 2-core machine holds a whole school: 1,000 students
// playing at once, thinking 1 to 3 s between moves, are answered with a
// move's p99 in tens of milliseconds and nothing lost (the measurements,
// run by run, are in server/DEVELOPING.md). `pigclass loadtest` measures a
// machine of your own against a running server:
//
//	pigclass serve --addr 127.0.0.1:8080 --db /tmp/load.db --moves-per-second 1000 &
//	pigclass loadtest --url http://127.0.0.1:8080 --students 1000 --duration 20s --teachers 5
//	pigclass loadtest --url http://127.0.0.1:8080 --students 1000 --duration 30s --think 1s-3s --teachers 5
//	pigclass loadtest --url http://127.0.0.1:8080 --students 1000 --duration 60s --think 1s-3s --teachers 5 --rounds-every 10s
//	pigclass loadtest --url http://127.0.0.1:8080 --students 30 --duration 10s
//	pigclass loadtest --url http://127.0.0.1:8080 --students 1000 --duration 20s --think 1s-3s --teachers 5 --poll 500ms
//	pigclass loadtest --url http://127.0.0.1:8080 --students 1000 --duration 20s --think 1s-3s --teachers 5 --poll 500ms --push
//
// (A player may make 8 moves a second; the loads without think time raise
// that with `--moves-per-second`, as only a load test needs.) With `--poll`
// each student's page polls while it waits, as a browser left open does;
// with `--push` as well, every page holds its event stream, as browsers with
// JavaScript do.
//
// `loadtest` plays through the same forms a browser without JavaScript
// posts, each student with their own cookies, and refuses any address but
// this machine's loopback. At the end it reads the teacher's decisions.csv
// and checks that every acknowledged action is stored exactly once; `--json`
// prints one object.
//
// # A school or a district
//
// One instance on one machine serves a whole school (see "Measuring the
// machine"). For a district, run one instance per group of schools, each with its own
// SQLite file and its own code prefix, behind nginx. `pigclass proxyconf`
// writes the whole nginx configuration; these are the commands
// `TestDistrictBehindNginx` (cmd/pigclass) runs, with three instances on one
// machine:
//
//	pigclass proxyconf --listen 127.0.0.1:8000 --public-url http://127.0.0.1:8000 --instance A=127.0.0.1:8081 --instance J=127.0.0.1:8082 --instance R=127.0.0.1:8083 > pigclass-nginx.conf
//	pigclass serve --addr 127.0.0.1:8081 --code-prefix A --public-url http://127.0.0.1:8000 --trusted-proxy 127.0.0.1 --db pigclass-a.db &
//	pigclass serve --addr 127.0.0.1:8082 --code-prefix J --public-url http://127.0.0.1:8000 --trusted-proxy 127.0.0.1 --db pigclass-j.db &
//	pigclass serve --addr 127.0.0.1:8083 --code-prefix R --public-url http://127.0.0.1:8000 --trusted-proxy 127.0.0.1 --db pigclass-r.db &
//	nginx -c $PWD/pigclass-nginx.conf -p $PWD
//
// (on a district's network: each instance's own address, and the address
// browsers use as `--public-url`). Each instance trusts the address the
// proxy connects to it from, which proxyconf writes into each `serve` line
// as `--trusted-proxy`: 127.0.0.1 for an instance on the proxy's machine,
// else the proxy's address on the instances' network (the one this machine
// reaches them from, or `--proxy-address`). An instance that trusted
// 127.0.0.1 behind a proxy on another machine would believe no
// `X-Forwarded-For`: every student would share the proxy's address, and 20
// wrong codes from anyone would lock out the next student with the right
// one. The configuration passes the pages' event streams on unbuffered
// (its `location ~ ^/(c|t|p)/[^/]+/events$`), and both district tests hold
// a teacher's stream open through the proxy and hear a student's move on
// it. For HAProxy (2.2 or later) the same
// district is, as `TestDistrictBehindHAProxy` runs it with Debian's HAProxy
// 2.6 (it checks each instance's `/healthz` every second):
//
//	pigclass proxyconf --format haproxy --listen 127.0.0.1:8000 --public-url http://127.0.0.1:8000 --instance A=127.0.0.1:8081 --instance J=127.0.0.1:8082 --instance R=127.0.0.1:8083 > pigclass-haproxy.conf
//	pigclass serve --addr 127.0.0.1:8081 --code-prefix A --public-url http://127.0.0.1:8000 --trusted-proxy 127.0.0.1 --db pigclass-a.db &
//	pigclass serve --addr 127.0.0.1:8082 --code-prefix J --public-url http://127.0.0.1:8000 --trusted-proxy 127.0.0.1 --db pigclass-j.db &
//	pigclass serve --addr 127.0.0.1:8083 --code-prefix R --public-url http://127.0.0.1:8000 --trusted-proxy 127.0.0.1 --db pigclass-r.db &
//	haproxy -f pigclass-haproxy.conf
//
// Both blocks are made by the same function that starts the tests' processes
// (`districtCommands`, and `TestGuideDistrictCommands` checks them here).
// Every address of a class (`/c/`, `/t/`,
// `/p/`, `/join/` and its code) goes to the instance whose prefix the code
// starts with; everything else (the front page, starting a class, `/join`,
// `/static/`, `/verify`, practice matches) is spread over all instances, so
// new classes are spread too. `Host`, `X-Forwarded-For` and
// `X-Forwarded-Proto` are forwarded, connections to the instances kept
// alive, and an instance that fails is taken out of the spread for 10 s at a
// time. Each instance trusts `--public-url`'s origin for forms (a browser's
// `Origin` is the proxy's) and answers a class whose code has another
// instance's prefix with 421 and a sentence saying the proxy sent it to the
// wrong place.
//
// Measured by the test on this 2-core machine: nine classes started through
// the proxy landed three on each instance; a student joined and played
// through it; with one instance killed (SIGKILL) the others' classes played
// on and six new classes started, none on the dead instance; started again,
// its class and student were back.
//
// # A district on one Postgres
//
// The layout above keeps each class on one machine: when that machine
// stops, its classes wait for it. A district that runs Postgres (with its
// replication and backups) can give every instance the same database
// instead; SQLite stays the default, and one laptop needs nothing more.
// `--db` (or `PIGCLASS_DB`) then names the database as a `postgres://`
// URL, and every instance shares one key file (`--key`: projector links and
// rejoin codes are made with it; it is made the first time, and each
// instance must have the same file). `pigclass proxyconf --shared-db` writes
// nginx's configuration for it:
//
//	pigclass proxyconf --shared-db --listen 127.0.0.1:8000 --public-url http://127.0.0.1:8000 --instance A=127.0.0.1:8081 --instance J=127.0.0.1:8082 --instance R=127.0.0.1:8083 > pigclass-nginx.conf
//	PIGCLASS_DB=postgres://pigclass@DBHOST/pigclass pigclass serve --addr 127.0.0.1:8081 --code-prefix A --public-url http://127.0.0.1:8000 --trusted-proxy 127.0.0.1 --key district.key &
//	PIGCLASS_DB=postgres://pigclass@DBHOST/pigclass pigclass serve --addr 127.0.0.1:8082 --code-prefix J --public-url http://127.0.0.1:8000 --trusted-proxy 127.0.0.1 --key district.key &
//	PIGCLASS_DB=postgres://pigclass@DBHOST/pigclass pigclass serve --addr 127.0.0.1:8083 --code-prefix R --public-url http://127.0.0.1:8000 --trusted-proxy 127.0.0.1 --key district.key &
//	nginx -c $PWD/pigclass-nginx.conf -p $PWD
//
// (the database's address in the environment keeps its password out of
// the process list; Postgres's own `PGPASSFILE` works too).
//
//   - Any instance serves any class, one at a time. A class is served by
//     the instance holding its lease: a row of `class_leases` with an expiry
//     its holder renews every 2 s and a generation each takeover adds one to
//     (a row, not an advisory lock: a lock belongs to a connection, while the
//     writer's one connection carries many classes' writes in each batch; a
//     row is read by every instance, outlives a dropped connection, and gives
//     the generation that fences). The first request for a class an instance
//     does not hold takes the lease if it is free or expired, and loads the
//     class as a restart does (its matches being played, Skunk, the analyses
//     it waits for, its deadlines). Asked for a class another instance holds,
//     an instance answers the class's student, teacher or projector 503 with
//     `Retry-After: 1`, and nginx asks the next instance (a stranger gets what
//     every instance says: the class's members are decided first; a join
//     counts as a guess). nginx asks the instance whose prefix the code starts
//     with first (the one that started the class), the others as backups.
//   - Losing a machine loses no lesson. When the serving instance stops,
//     its lease expires within 6 s and the next instance nginx asks takes the
//     class over; a graceful stop hands its classes over at once. A stale
//     instance (paused past its lease, cut from the network) writes nothing
//     more for the class: every write of a class checks, in its transaction,
//     that the lease row still has the holder and generation the instance
//     took (`SELECT ... FOR SHARE`, so a takeover waits for a batch that
//     checked), and is refused as not saved otherwise; the instance then lets
//     the class go. `TestADistrictOnOnePostgres` (cmd/pigclass) runs it:
//     Postgres, nginx with proxyconf's output as it is, three instances, a
//     class of 30 students playing rounds through nginx; the serving instance
//     is killed with SIGKILL mid-round, and the class goes on through another
//     within 10 s (5 to 6 s measured: the lease's expiry and the retries):
//     every acknowledged move stored once, none twice, the round played to
//     its end and more after it, the class's files read whole, and the
//     records of the round's matches (played by two instances) verifying with
//     the district's key. A form posted in the seconds of a takeover, while
//     every instance asked answers 503, gets the 503 or nginx's own 502: the
//     board says so above its buttons (the server's words, or "Not saved:
//     ... Try again" for the proxy's page), the student taps again, and the
//     board's `seq` keeps a tap from counting twice.
//   - An instance back keeps no class's forms waiting. The instance that
//     was killed comes back while another holds its classes' leases (and
//     keeps renewing them); nginx still asks it first, and it answers 503.
//     proxyconf's `--shared-db` configuration passes a form (a POST) on to
//     the next instance on a 503 or an instance it cannot reach
//     (`proxy_next_upstream error http_503 non_idempotent`, in a location of
//     its own), never on a time-out. That is safe because pigclass answers
//     503 only for what it did not do (a class another instance serves, a
//     write the database refused), and a form whose instance died before
//     answering reaches instances that cannot take the class over while that
//     one's lease lasts: they answer 503 too. Before, nginx passed on no
//     POST it had sent, and the class's moves, joins, lock and open answered
//     503 for as long as the other instance held the class.
//     `TestADistrictOnOnePostgres` brings the killed instance back and posts
//     the load's moves, a join, a lock and an open a second for 30 s through
//     nginx: every one taken (before the change, 55 of 91 forms and 3,832
//     moves were answered 503).
//   - Backups and a move. `pigclass backup --db postgres://... --to FILE`
//     copies the database with Postgres's `pg_dump` (its custom format, one
//     consistent snapshot while the instances write) and lists it back with
//     `pg_restore`; a district's own `pg_dump` schedule does the same. `pigclass
//     migrate --from pigclass.db --to postgres://...` moves a school's SQLite
//     file into the district's database in one transaction: every class with
//     everything in it, under new ids (the district may hold other schools
//     already; a class code it has refuses the move whole). A match's record
//     names no id: records replay and verify as before, and with the school's
//     key (`--key pigclass.db.key`) byte for byte the same
//     (`TestMigrateASchoolIntoTheDistrict`); under the district's key the
//     projector links and rejoin codes change (print them again from each
//     dashboard), and records downloaded before verify as the school's.
//
// # Health and metrics
//
// `/healthz` answers JSON for a proxy's health check: its status, the
// database's and the version, nothing of the classes (the addresses'
// list, "Addresses", gives its fields). `--metrics-addr ADDR` (off by
// default) serves `/metrics` in Prometheus' text format on an address of
// its own (answering only that address, localhost and the names
// `--metrics-host` gives: a Prometheus server scrapes by name): request
// latency by method (the app's own, any other counted as "other") and
// route (the route's pattern, never an address with a class code),
// acknowledged actions, the writer's batches, writes (their ratio is the
// mean batch) and queue, the classes, students and matches in memory, the
// solved tables' memory, the solver's solves (started, given up, by game
// and players) and queue, and Go's and the process's own. It uses the
// Prometheus Go client (github.com/prometheus/client_golang) rather than
// expvar: a district's monitoring scrapes Prometheus' format, which
// expvar's JSON is not, and the client's histograms give latency
// quantiles by route. The log (standard error, or the service's journal)
// says when the server starts and stops, which tables it solved and each
// error; `--log-format json` and `--log-level debug` are under
// "Installing it as a service".
//
// # A learning platform (LTI 1.3)
//
// A school whose teachers work in a learning platform (Canvas, Moodle,
// Schoology, Brightspace and others that speak LTI 1.3) adds pigclass to
// it once; teachers then add it to a course like any other tool, and its
// links open pigclass without a code or a nickname: an instructor on the
// dashboard of the class the link opens (made on the link's first
// launch), a learner straight into that class under the name the
// platform gives (a second learner of the same name gets "Ana Souza 2").
// A learner's next launch, from any computer, finds their seat.
//
// `pigclass lti --public-url https://pigclass.school.example` prints the
// addresses a platform's administrator needs:
//
//   - the registration address, /lti/register/KEY, for LTI Dynamic
//     Registration: pasted into the platform ("Add tool" by URL), it
//     lets the platform register pigclass with one click, and pigclass
//     keeps the platform (its issuer, pigclass's client id there, its
//     deployment, its addresses). KEY is worked out from the server's key:
//     give the address to the platform alone, as anyone with it can
//     register a platform;
//   - for a platform without dynamic registration, the login initiation
//     (/lti/login), the launch or redirect URI (/lti/launch) and
//     pigclass's public keys (/lti/jwks), to type into its tool
//     configuration; then `pigclass lti add --issuer URL --client-id ID
//     --deployment ID --login-url URL --token-url URL --keys-url URL`
//     with what the platform shows in return;
//   - the platforms registered.
//
// Every launch is checked: its token signed with a key the platform
// publishes (fetched again when a launch names a new one), for pigclass's
// client id, unexpired, with the nonce of the sign-in that started it in
// the same browser and used once, from a deployment the platform
// registered. A refused launch says why on its page. pigclass signs its
// own requests to a platform with a key of its own, kept in the database
// locked with the server's key and published at /lti/jwks;
// `pigclass lti rotate` makes a new one (the one before it stays
// published until the next rotation).
//
// A platform shows pigclass in a frame of its pages: the browser sends
// pigclass's cookies there only over HTTPS (SameSite=None; Secure), so
// serve pigclass over HTTPS (behind a proxy: --trusted-proxy and its
// X-Forwarded-Proto) with an https:// --public-url. Over plain HTTP a
// launch works only in a window of its own (the platform's "open in a new
// window" setting, or the platform's storage, below). pigclass's pages may be framed by the platforms
// registered and by the site a launch came from, and by no one else.
//
// When an instructor adds pigclass to a course (deep linking), they
// pick what the link opens: a lesson plan, a homework (a game against a
// bot, a number of games) or the class alone, and whether the gradebook
// gets a column for it. The link's first launch makes its class (with
// its homework, if it has one). With the platform's names and roles
// service, each instructor's launch seats the course's learners who have
// not come yet (shown as not started) and takes out those who left the
// course. With its grade service, each learner's score goes to the
// link's column once a minute when it changed, never twice the same: a
// homework's games played of those asked; for a class without homework,
// as its teacher chooses on the dashboard, the quality of their decisions
// out of 100 (100 minus the chance to win a game they gave away on
// average, in percentage points: students.csv's cost_per_game_pct) or the
// games they played, out of the column's maximum; with a comment that
// says which. A
// score the platform refuses is tried again after a minute, then after
// twice as long each time, up to six hours. The platform's user ids are
// kept (table lti_members) and deleted with a student's erasure;
// students.csv names them only when the teacher asks
// (`/t/{code}/students.csv?platform=ids`).
//
// A browser that keeps no cookie in a frame of another site (Safari;
// Chrome set to block third-party cookies; any browser over plain HTTP)
// would lose the sign-in's state between the login and the launch. A
// platform that offers its storage (lti_storage_target: 1EdTech's LTI
// Client Side postMessages) keeps the state for pigclass instead: the
// launch goes through, and since the frame keeps no cookie for the pages
// after it either, pigclass offers a link that opens the class in a
// window of its own, signed in there (the link holds the browser's
// secret sealed with the server's key, and works once, within five
// minutes).
//
// # Every command and flag
//
// `pigclass help` prints:
//
//	pigclass: a classroom probability lab built on the dice games Pig and Hog.
//
//	Usage: pigclass COMMAND [flags]   (pigclass COMMAND -h lists the flags)
//
//	Commands:
//	  advise    print the win probability of every option in one position
//	  backup    copy the database to a new file, safely while the server runs
//	  classroom serve a class on this computer's network and open the browser (the default: a double-click)
//	  duel      print the exact chance that one strategy beats another
//	  export    write a class's decisions, matches or students as CSV
//	  loadtest  play many simulated students against a running server on this machine
//	  lti       print the addresses a learning platform needs to add pigclass (LTI 1.3), or register one by hand
//	  migrate   move a school's SQLite file into a district's Postgres database
//	  proxyconf print an nginx or HAProxy configuration for a district of several instances
//	  serve     run the web app where --addr says (this computer alone unless told), as a service does
//	  service   print a systemd unit that runs the web app as a service
//	  simulate  play many games between strategies and print win rates
//	  solve     solve a game exactly and print the first player's chance
//	  verify    check every roll and the result of a match record (JSON)
//	  version   print the version, the commit it was built from and the Go version
//	  help      print this list
//
// `pigclass advise --help` prints:
//
//	Usage: pigclass advise --game G [--target T] [--max-dice D] --score I (--opponent J | --others J1,J2,...) [--turn-total K] [--json]
//	  -game string
//	        the game: pig, two-dice, big-pig, hog, pass-the-pigs (default "pig")
//	  -json
//	        print one JSON object
//	  -max-dice int
//	        Hog: the most dice a player may throw (default 10)
//	  -opponent int
//	        the opponent's score (two players) (default -1)
//	  -others string
//	        more than two players: the others' scores in the order they move after the player, e.g. 60,25
//	  -score int
//	        the score of the player to move (default -1)
//	  -target int
//	        the score that wins (default 100)
//	  -turn-total int
//	        the turn total so far (Pig games)
//
// `pigclass backup --help` prints:
//
//	Usage: pigclass backup --db FILE --to NEWFILE
//	  -db string
//	        the database to copy (env PIGCLASS_DB): a SQLite file, or a district's postgres:// database (copied with Postgres's pg_dump); the server may be running on it (default "./pigclass.db")
//	  -to string
//	        the new file to write the copy to (it must not exist)
//
// `pigclass classroom --help` prints:
//
//	Usage: pigclass classroom [--no-browser] [--public-url URL] [serve's flags]
//	  -addr string
//	        address to listen on (env PIGCLASS_ADDR): every address of this computer, so that students' devices reach it; if its port is taken, the next free one of the 19 after it (default ":8080")
//	  -code-prefix string
//	        the first characters of every join code this instance draws, for a proxy routing classes by code (env PIGCLASS_CODE_PREFIX)
//	  -db string
//	        SQLite database file or a postgres:// URL (env PIGCLASS_DB; default: a pigclass.db beside this program or in the working folder if one is there, else pigclass.db in this user's folder for application data)
//	  -key string
//	        the server's key file, made the first time (env PIGCLASS_KEY; default: the database file's name with .key); with Postgres, required: the same file on every instance of the district
//	  -log-format string
//	        the log's format: text, or json for a school's log tools (env PIGCLASS_LOG_FORMAT) (default "text")
//	  -log-level string
//	        info, or debug for a line a request (its route's pattern, status and time; env PIGCLASS_LOG_LEVEL) (default "info")
//	  -metrics-addr string
//	        serve Prometheus metrics at /metrics on this address, e.g. 127.0.0.1:9100 (env PIGCLASS_METRICS_ADDR; default: none)
//	  -metrics-host string
//	        names, comma-separated, a Prometheus server scrapes the metrics by, besides their address and localhost (env PIGCLASS_METRICS_HOST)
//	  -moves-per-second string
//	        moves a player may make a second (env PIGCLASS_MOVES_PER_SECOND; default 8: faster than a hand; raise it only for a load test without think time)
//	  -no-browser
//	        do not open the teacher's browser (env PIGCLASS_NO_BROWSER=1; PIGCLASS_BROWSER names the program that opens it instead of the system's)
//	  -public-url string
//	        address students type, shown on the projector (env PIGCLASS_PUBLIC_URL; default: the browser's)
//	  -retain-days string
//	        days a class and everything in it is kept after its last activity, then erased; 0 keeps classes until their teacher deletes them (env PIGCLASS_RETAIN_DAYS) (default "180")
//	  -trusted-proxy string
//	        reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed, as addresses or networks separated by commas (env PIGCLASS_TRUSTED_PROXY; default: none)
//
// `pigclass duel --help` prints:
//
//	Usage: pigclass duel --game G [--target T] [--equal-turns] [--seats N] (--first S1 --second S2 | --players S1,S2,S3[,...]) [--json]
//	  -equal-turns
//	        play the round out so everyone has the same number of turns
//	  -first string
//	        the strategy that moves first: optimal, ev, hold:N, kper, dice:N (Hog), or a plan's JSON file (FILE.json, as a class's strategies download it)
//	  -game string
//	        the game: pig, two-dice, big-pig, hog, pass-the-pigs (default "pig")
//	  -json
//	        print one JSON object
//	  -max-dice int
//	        Hog: the most dice a player may throw (default 10)
//	  -players string
//	        instead of --first and --second: comma-separated strategies, one a seat, seat 0 moving first (2 to 10 players; more than two: each player's exact chance)
//	  -seats int
//	        players, 2 to 10: with --first and --second, seat 0 plays the first and every other seat the second (default 2, or as many as --players)
//	  -second string
//	        the strategy that moves second
//	  -target int
//	        the score that wins (default 100)
//
// `pigclass export --help` prints:
//
//	Usage: pigclass export --class CODE --what decisions|matches|match_players|students|strategies|tournament|experiments [--db FILE] [--real-names]
//	  -class string
//	        the class's join code
//	  -db string
//	        SQLite database file, or a district's postgres:// database (env PIGCLASS_DB) (default "./pigclass.db")
//	  -real-names
//	        real nicknames even in anonymous mode
//	  -what string
//	        the file: decisions, matches, match_players, students, strategies, tournament, experiments (default "decisions")
//
// `pigclass loadtest --help` prints:
//
//	Usage: pigclass loadtest --url http://127.0.0.1:8080 [--students N] [--duration D] [--think MIN-MAX] [--teachers N] [--rounds-every D] [--poll D [--push]] [--json]
//	  -duration duration
//	        how long the students play (10ms to 1h) (default 30s)
//	  -hold-at int
//	        the turn total at which every student holds (1 to 100) (default 20)
//	  -json
//	        print one JSON object
//	  -poll duration
//	        a load shaped as browsers left open make it: every student joins at once, polls the class page this often while waiting (e.g. 500ms), and loads the page each move leads to; teacher screens poll the projector too (0: off; else 100ms to 10s)
//	  -push
//	        with --poll: every page holds its event stream and fetches when told to, as browsers with JavaScript do, instead of polling
//	  -rounds-every duration
//	        start a new round this often, ending the matches still played, as a lesson moves on (0: once every match is over; else 1s to 10m)
//	  -seed uint
//	        seed of the think times (default 1)
//	  -students int
//	        simulated students, each with their own cookies (1 to 5000) (default 100)
//	  -target int
//	        Pig's target (10 to 200) (default 100)
//	  -teachers int
//	        teacher screens polling the dashboard's live part every second (0 to 20) (default 1)
//	  -think string
//	        think time between moves: 0, a duration, or MIN-MAX such as 1s-3s (default "0")
//	  -url string
//	        a running pigclass server, on loopback (127.0.0.0/8 or ::1) only (default "http://127.0.0.1:8080")
//
// `pigclass lti --help` prints:
//
//	Usage: pigclass lti [add | rotate] --db FILE --public-url URL [add's flags]
//	  -client-id string
//	        add: pigclass's client id at the platform
//	  -db string
//	        the server's database (env PIGCLASS_DB); the server may be running on it (default "./pigclass.db")
//	  -deployment string
//	        add: the deployment ids of pigclass at the platform, separated by commas
//	  -issuer string
//	        add: the platform's issuer (the iss of its launches)
//	  -key string
//	        the server's key file (env PIGCLASS_KEY; default: the database file's name with .key); with Postgres, the district's
//	  -keys-url string
//	        add: the address of the platform's public keys (JWKS)
//	  -login-url string
//	        add: the platform's OIDC authorization endpoint
//	  -public-url string
//	        the address the platform reaches pigclass at, as serve's --public-url (env PIGCLASS_PUBLIC_URL), https:// for a platform that shows pigclass in a frame
//	  -token-url string
//	        add: the platform's OAuth 2 token endpoint
//
// `pigclass migrate --help` prints:
//
//	Usage: pigclass migrate --from FILE.db --to postgres://...
//	  -from string
//	        the school's SQLite file (stop its server first: what it writes after the copy would be left behind)
//	  -to string
//	        the district's database, a postgres:// URL (env PIGCLASS_DB)
//
// `pigclass proxyconf --help` prints:
//
//	Usage: pigclass proxyconf [--format nginx|haproxy] [--shared-db] --listen ADDR --public-url URL --instance PREFIX=HOST:PORT [--instance ...]
//	  -format string
//	        the proxy: nginx (run it with nginx -c FILE -p DIR) or haproxy (haproxy -f FILE) (default "nginx")
//	  -instance value
//	        one instance: its code prefix and address, PREFIX=HOST:PORT (repeat for each)
//	  -listen string
//	        the address the proxy listens on (default "127.0.0.1:8000")
//	  -proxy-address string
//	        the address the proxy connects to the instances from, which each instance must trust (--trusted-proxy); default: 127.0.0.1 for instances on this machine, else the address this machine reaches them from
//	  -public-url string
//	        the address browsers use to reach the proxy, e.g. http://pigclass.district.example (each instance is started with the same --public-url)
//	  -shared-db
//	        the instances share one Postgres database (serve --db postgres://...): every instance may serve every class, the class's code choosing the one asked first (nginx only)
//
// `pigclass serve --help` prints:
//
//	Usage: pigclass serve [--addr HOST:PORT] [--db FILE] [--public-url URL] [--code-prefix P]
//	  -addr string
//	        address to listen on (env PIGCLASS_ADDR); use :8080 to serve the classroom network (default "localhost:8080")
//	  -code-prefix string
//	        the first characters of every join code this instance draws, for a proxy routing classes by code (env PIGCLASS_CODE_PREFIX)
//	  -db string
//	        SQLite database file, created on first start, or a district's Postgres database as a postgres:// URL (env PIGCLASS_DB) (default "./pigclass.db")
//	  -key string
//	        the server's key file, made the first time (env PIGCLASS_KEY; default: the database file's name with .key); with Postgres, required: the same file on every instance of the district
//	  -log-format string
//	        the log's format: text, or json for a school's log tools (env PIGCLASS_LOG_FORMAT) (default "text")
//	  -log-level string
//	        info, or debug for a line a request (its route's pattern, status and time; env PIGCLASS_LOG_LEVEL) (default "info")
//	  -metrics-addr string
//	        serve Prometheus metrics at /metrics on this address, e.g. 127.0.0.1:9100 (env PIGCLASS_METRICS_ADDR; default: none)
//	  -metrics-host string
//	        names, comma-separated, a Prometheus server scrapes the metrics by, besides their address and localhost (env PIGCLASS_METRICS_HOST)
//	  -moves-per-second string
//	        moves a player may make a second (env PIGCLASS_MOVES_PER_SECOND; default 8: faster than a hand; raise it only for a load test without think time)
//	  -public-url string
//	        address students type, shown on the projector (env PIGCLASS_PUBLIC_URL; default: the browser's)
//	  -retain-days string
//	        days a class and everything in it is kept after its last activity, then erased; 0 keeps classes until their teacher deletes them (env PIGCLASS_RETAIN_DAYS) (default "180")
//	  -trusted-proxy string
//	        reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed, as addresses or networks separated by commas (env PIGCLASS_TRUSTED_PROXY; default: none)
//
// `pigclass service --help` prints:
//
//	Usage: pigclass service [--addr HOST:PORT] [--db FILE] [--public-url URL] [--code-prefix P]
//	  -addr string
//	        address to listen on (env PIGCLASS_ADDR); use :8080 to serve the classroom network (default "localhost:8080")
//	  -code-prefix string
//	        the first characters of every join code this instance draws, for a proxy routing classes by code (env PIGCLASS_CODE_PREFIX)
//	  -db string
//	        SQLite database file, created on first start, or a district's Postgres database as a postgres:// URL (env PIGCLASS_DB) (default "./pigclass.db")
//	  -key string
//	        the server's key file, made the first time (env PIGCLASS_KEY; default: the database file's name with .key); with Postgres, required: the same file on every instance of the district
//	  -log-format string
//	        the log's format: text, or json for a school's log tools (env PIGCLASS_LOG_FORMAT) (default "text")
//	  -log-level string
//	        info, or debug for a line a request (its route's pattern, status and time; env PIGCLASS_LOG_LEVEL) (default "info")
//	  -metrics-addr string
//	        serve Prometheus metrics at /metrics on this address, e.g. 127.0.0.1:9100 (env PIGCLASS_METRICS_ADDR; default: none)
//	  -metrics-host string
//	        names, comma-separated, a Prometheus server scrapes the metrics by, besides their address and localhost (env PIGCLASS_METRICS_HOST)
//	  -moves-per-second string
//	        moves a player may make a second (env PIGCLASS_MOVES_PER_SECOND; default 8: faster than a hand; raise it only for a load test without think time)
//	  -public-url string
//	        address students type, shown on the projector (env PIGCLASS_PUBLIC_URL; default: the browser's)
//	  -retain-days string
//	        days a class and everything in it is kept after its last activity, then erased; 0 keeps classes until their teacher deletes them (env PIGCLASS_RETAIN_DAYS) (default "180")
//	  -trusted-proxy string
//	        reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed, as addresses or networks separated by commas (env PIGCLASS_TRUSTED_PROXY; default: none)
//	pigclass service [--binary PATH] [--user NAME] [serve's flags] prints a systemd unit that runs
//	"pigclass serve" with serve's flags; the database and its key live in /var/lib/pigclass.
//	--binary is the installed binary (default: this one), --user a system user of your own
//	(default: a user systemd makes for the service). Serve's flags:
//
// `pigclass simulate --help` prints:
//
//	Usage: pigclass simulate --players S1,S2[,S3,...] [--seats N] [--game G] [--games N] [--seed S] [--json]
//	  -equal-turns
//	        play the round out so everyone has the same number of turns
//	  -game string
//	        the game: pig, two-dice, big-pig, hog, pass-the-pigs (default "pig")
//	  -games int
//	        number of games (default 100000)
//	  -json
//	        print one JSON object
//	  -max-dice int
//	        Hog: the most dice a player may throw (default 10)
//	  -players string
//	        comma-separated strategies, seat 0 (moving first) first: optimal, ev, hold:N, kper, dice:N (Hog), or a plan's JSON file (FILE.json, as a class's strategies download it) (default "hold:20,hold:20")
//	  -seats int
//	        players, 2 to 10: one strategy in --players plays every seat (default: as many as --players)
//	  -seed string
//	        any text; the same seed gives the same results (default: random, printed)
//	  -target int
//	        the score that wins (default 100)
//	  -workers int
//	        goroutines to play on (default: all cores)
//
// `pigclass solve --help` prints:
//
//	Usage: pigclass solve --game G [--target T] [--max-dice D] [--equal-turns] [--seats N] [--json]
//	  -equal-turns
//	        play the round out so everyone has the same number of turns
//	  -game string
//	        the game: pig, two-dice, big-pig, hog, pass-the-pigs (default "pig")
//	  -json
//	        print one JSON object
//	  -max-dice int
//	        Hog: the most dice a player may throw (default 10)
//	  -seats int
//	        players, from 2 to 10 (more than two: perfect play for every player) (default 2)
//	  -target int
//	        the score that wins (default 100)
//
// `pigclass verify --help` prints:
//
//	Usage: pigclass verify [--fingerprint FP] FILE   (a match record: JSON with variant, seed, events, result)
//	  -fingerprint string
//	        the fingerprint of the server's record key, as its verify page shows it: the record must be signed with that key
//
// `pigclass version --help` prints:
//
//	Usage: pigclass version
//
// # Games, strategies and what the commands print
//
// Games: `pig`, `two-dice`, `big-pig`, `hog`, `pass-the-pigs`. Strategies: `optimal`, `ev`
// (expected-value play: hold at 20 in Pig, 23 in Pass the Pigs from 0, 5 dice in Hog), `hold:N`, `kper`,
// `dice:N` (Hog). With more than two players (`simulate --players`, `duel
// --players`, 2 to 10 of them, seat 0 moving first) `optimal` is perfect
// play for that many players, each maximising their own chance
// (`solve.Perfect` on the N-player table); `duel` gives each player's exact
// chance by policy evaluation of the fixed strategies (so a teacher can ask
// "hold at 20 against two perfect players moving after me": `duel --game
// pig --seats 3 --first hold:20 --second optimal`, every seat after the
// first playing the second), its evaluation within 512 MB (three players
// to 100: 31 s and a peak of 230 MB, `/usr/bin/time -v`; a larger one is
// refused before anything is solved).
// `simulate --seats N --players S` puts S in every seat. Bad usage exits with status 2 and a message naming what is allowed.
// `simulate` plays about 2.2 million games a second of `hold:20` against
// `hold:20` on two cores (`go test ./sim -run X -bench SimulatePig`): where
// every player settles a turn when it starts (`hold:N`, `kper`) and the
// pieces are dice, a game is played a turn at a time, each roll a table
// look-up, with the same dice in the same order and so the same games as a
// decision at a time (`TestPlannedGamesAreTheSameGames`).
//
// The JSON outputs are contracts:
//
//   - `simulate --json`: `{"games": N, "mean_turns": T, "players": [{"seat": 0,
//     "strategy": "hold:20", "wins": W, "win_rate": R, "ci95": [LO, HI]}, ...],
//     ...}`, seat 0 moving first; the same `--seed` gives the same result on any
//     number of cores.
//   - `solve --json`: `{"game", "target", "first_player_win", "states",
//     "seconds", ...}`.
//   - `advise --json`: `{"best": ACTION, "ev": ACTION, "options": {ACTION: P}}`
//     with ACTION `roll`, `hold` or `dice:N`.
//   - `duel --json`: `{"first_wins": P, "exact": true, "players": [{"seat": 0,
//     "strategy": S, "wins": P}, ...], ...}` (`first` and `second` name the two
//     strategies of a duel of two).
//
// `verify` reads a match record (JSON: `format`, `variant`, `seed`,
// `commitment`, `events` with their times, `result`, `signature`; a finished
// match offers it) and says three things apart: the dice are the seed's and
// the seed is the one committed to; the moves follow the rules (or the first
// event that does not); the record is exactly as a server signed it. The
// server signs every record with an Ed25519 key derived from its key file
// beside the database; its verify page shows the key's fingerprint, and
// `--fingerprint FP` makes verify require that key. Records of earlier
// releases carry no signature: their dice and moves are checked, their
// decisions reported as not proven (status `UNPROVEN`, exit 0). A game of
// whole-class Skunk offers its signed record too, once it is over, and
// verify checks its rolls, sits and scores the same way. The format is in
// sim/dice.md.
package main
