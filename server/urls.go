package server

import (
	"fmt"
	"net/url"
)

// The app's addresses, built here and nowhere else. A class's addresses
// all begin with /c/{code} (students) or /t/{code} (the teacher), so that a
// reverse proxy can send every request of a class to the instance that
// holds it (README: "A school or a district"). Practice matches, which
// belong to no class, live under /m/{id}.

func classURL(code string) string   { return "/c/" + code }
func joinURL(code string) string    { return "/join/" + code }
func teacherURL(code string) string { return "/t/" + code }

// matchURL is a match's page: /c/{code}/m/{id}, or /m/{id} for practice.
func matchURL(code string, id int64) string {
	if code == "" {
		return fmt.Sprintf("/m/%d", id)
	}
	return fmt.Sprintf("/c/%s/m/%d", code, id)
}

func actURL(code string, id int64) string    { return matchURL(code, id) + "/act" }
func recordURL(code string, id int64) string { return matchURL(code, id) + "/record.json" }

// boardURL is the board's poll; version is what the page shows, so that a
// poll that finds nothing new is answered with 204 and swaps nothing.
func boardURL(code string, id int64, version string) string {
	return matchURL(code, id) + "/board?v=" + url.QueryEscape(version)
}

// verifyURL is the verify page filled with a match's record; a class
// match's is under its class's address.
func verifyURL(code string, id int64) string {
	if code == "" {
		return fmt.Sprintf("/verify?match=%d", id)
	}
	return fmt.Sprintf("%s/verify?match=%d", classURL(code), id)
}

// nextURL asks whether a student's next match (after match after) has begun.
func nextURL(code string, after int64) string {
	if after == 0 {
		return classURL(code) + "/next"
	}
	return fmt.Sprintf("%s/next?after=%d", classURL(code), after)
}

// pollURL adds the version a live part shows to its poll address.
func pollURL(path string, version int64) string { return fmt.Sprintf("%s?v=%d", path, version) }
