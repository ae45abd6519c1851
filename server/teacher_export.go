package server

import (
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/report"
)

// byDay reports whether the export named what keeps one day when asked
// (it has a day column).
func byDay(what string) bool {
	for _, f := range report.Files {
		if f.Name == what {
			return f.Has("day")
		}
	}
	return false
}

// csvFile serves one export to the teacher; ?excel=1 starts it with the
// byte-order mark Excel needs, ?names=real gives real nicknames in
// anonymous mode, ?day=YYYY-MM-DD keeps one day of the class (else the
// whole unit), ?platform=ids fills students.csv's platform_user.
func (s *Server) csvFile(what string) gin.HandlerFunc {
	return func(c *gin.Context) {
		class := classFrom(c)
		day := c.Query("day")
		if _, err := time.Parse(time.DateOnly, day); day != "" && err != nil {
			refuse(c, http.StatusBadRequest, loc(c).T("error.csv_day", "Example", s.reports.Today()))
			return
		}
		// A file is named by its day only if it keeps that day: one
		// without a day column (the strategies, the tournament) is the
		// class's whole, whatever day is asked.
		name := class.Code + "-" + what
		if day != "" && byDay(what) {
			name += "-" + day
		}
		excel := c.Query("excel") == "1"
		if excel {
			name += "-excel"
		}
		c.Header("Content-Type", "text/csv; charset=utf-8")
		c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.csv"`, name))
		c.Status(http.StatusOK)
		if excel {
			io.WriteString(c.Writer, report.ByteOrderMark)
		}
		if err := s.reports.Export(c.Request.Context(), viewerFrom(c), what, !class.Anonymous || c.Query("names") == "real", day, c.Query("platform") == "ids", c.Writer); err != nil {
			c.Error(err) // the header is sent: the file ends short, and the log says why
		}
	}
}
