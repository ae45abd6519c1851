package server

import (
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
)

// A district's instances share one Postgres database and serve each class
// one at a time (classroom.District): a request for a class this instance
// does not serve is answered here.

// elsewhereKey marks a request for a class another instance serves.
const elsewhereKey = "pigclass.elsewhere"

// atClass, before everything else a class's route does, makes sure this
// instance serves the class its address names (on a district's store);
// the request's writes are then fenced by its lease. A class another
// instance serves is marked, and the role's gate (servedHere) answers for
// it once the request is known to be a member's: a stranger is answered
// as for any class that is not theirs.
func atClass(d *classroom.District) gin.HandlerFunc {
	return func(c *gin.Context) {
		if d == nil {
			return
		}
		code := classroom.NormalizeCode(c.Param("code"))
		if code == "" {
			return
		}
		switch ctx, err := d.Serve(c.Request.Context(), code); {
		case errors.Is(err, classroom.ErrElsewhere):
			c.Set(elsewhereKey, true)
		case err != nil:
			fail(c, err)
		default:
			c.Request = c.Request.WithContext(ctx)
		}
	}
}

// servedHere ends a member's request for a class another instance serves:
// 503, to try again (the district's proxy tries the next instance). A
// stranger's request goes on, to be answered as every class not theirs
// is (the handlers decide that from the class as stored, and refuse).
func servedHere(c *gin.Context) {
	if !c.GetBool(elsewhereKey) {
		return
	}
	v := viewerFrom(c)
	if _, student := v.Student(); student || v.Teacher() || v.Projector() {
		elsewhere(c)
	}
}

// elsewhere answers a request for a class another instance serves.
func elsewhere(c *gin.Context) {
	c.Header("Retry-After", "1")
	refuse(c, http.StatusServiceUnavailable, loc(c).T("error.served_elsewhere"))
}
