package server

import (
	"fmt"
	"io"
	"net/http"

	"github.com/gin-gonic/gin"

	"pigclass/server/report"
)

// csvFile serves one export to the teacher; ?excel=1 starts it with the
// byte-order mark Excel needs, ?names=real gives real nicknames in
// anonymous mode.
func (s *Server) csvFile(what string) gin.HandlerFunc {
	return func(c *gin.Context) {
		class := classFrom(c)
		name := class.Code + "-" + what
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
		if err := s.reports.Export(c.Request.Context(), viewerFrom(c), what, !class.Anonymous || c.Query("names") == "real", c.Writer); err != nil {
			c.Error(err) // the header is sent: the file ends short, and the log says why
		}
	}
}
