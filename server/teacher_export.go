package server

import (
	"fmt"
	"io"
	"net/http"
	"os"
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
		// The file is written whole before anything is answered (issue
		// 82): a failed export is an error page, not a short file that
		// looks whole. It goes to a temporary file, not memory: a class
		// of a thousand's decisions.csv is tens of MB.
		f, err := os.CreateTemp("", "pigclass-export-*.csv")
		if err != nil {
			fail(c, err)
			return
		}
		defer os.Remove(f.Name())
		defer f.Close()
		if excel {
			io.WriteString(f, report.ByteOrderMark)
		}
		if err := s.reports.Export(c.Request.Context(), viewerFrom(c), what, !class.Anonymous || c.Query("names") == "real", day, c.Query("platform") == "ids", f); err != nil {
			fail(c, err)
			return
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			fail(c, err)
			return
		}
		c.Header("Content-Type", "text/csv; charset=utf-8")
		c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.csv"`, name))
		c.Status(http.StatusOK)
		io.Copy(c.Writer, f)
	}
}
