package sim

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// RecordFormat is the format of the records this release writes: 2 adds
// the format itself, each event's time and the signature. Records without a
// format field are the earlier releases' (see sim/dice.md).
const RecordFormat = 2

// Signature is a server's Ed25519 signature over a record: the public key
// and the signature, both in standard base64. What is signed is the record
// without its signature, in canonical JSON (see SignedBytes).
type Signature struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// signedPrefix is written before the canonical record in what is signed, so
// that no other message of the same key can pass for a record.
const signedPrefix = "pigclass match record\n"

// Sign returns r in the current format, signed with key. Every event must
// have its time.
func (r Record) Sign(key ed25519.PrivateKey) (Record, error) {
	r.Format, r.Signature = RecordFormat, nil
	sig, err := signRecord(r, len(r.Events), func(i int) time.Time { return r.Events[i].At }, key)
	r.Signature = sig
	return r, err
}

// signRecord checks that each of a record's n events has its time (at),
// then signs the record (without its signature) with key.
func signRecord(record any, n int, at func(int) time.Time, key ed25519.PrivateKey) (*Signature, error) {
	for i := range n {
		if at(i).IsZero() {
			return nil, fmt.Errorf("sign: event %d has no time", i+1)
		}
	}
	data, err := json.Marshal(record)
	if err != nil {
		return nil, err
	}
	msg, err := SignedBytes(data)
	if err != nil {
		return nil, err
	}
	pub := key.Public().(ed25519.PublicKey)
	return &Signature{
		Key:   base64.StdEncoding.EncodeToString(pub),
		Value: base64.StdEncoding.EncodeToString(ed25519.Sign(key, msg)),
	}, nil
}

// SignedBytes returns what a signature over the record data covers: a fixed
// prefix, then the record's JSON without its "signature" member in
// canonical form (members sorted by name, no spaces, numbers as written).
// However the record is indented or its members ordered, the same record
// gives the same bytes, and any change to any value gives others.
func SignedBytes(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	delete(v, "signature")
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append([]byte(signedPrefix), b...), nil
}

// Fingerprint names a public key in a form a person can compare: the first
// 16 bytes of its SHA-256, in hex groups of four.
func Fingerprint(key ed25519.PublicKey) string {
	sum := sha256.Sum256(key)
	h := hex.EncodeToString(sum[:16])
	groups := make([]string, 0, 8)
	for i := 0; i < len(h); i += 4 {
		groups = append(groups, h[i:i+4])
	}
	return strings.Join(groups, " ")
}

// SameFingerprint compares two fingerprints as a person types them: spaces,
// colons and case do not matter.
func SameFingerprint(a, b string) bool {
	norm := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == ' ' || r == ':' || r == '-' {
				return -1
			}
			return r
		}, strings.ToLower(s))
	}
	return norm(a) != "" && norm(a) == norm(b)
}

// SignatureCheck is what the signature of a record says.
type SignatureCheck struct {
	// Signed says the record carries a signature.
	Signed bool
	// Key is the key it was signed with (when it could be read).
	Key ed25519.PublicKey
	// Err is why the signature does not hold (nil when it does, or when
	// there is none).
	Err error
}

// Valid says the record is signed and exactly as the key's holder wrote it.
func (c SignatureCheck) Valid() bool { return c.Signed && c.Err == nil }

// The ways a signature does not hold.
var (
	ErrSignatureUnreadable = errors.New("the signature cannot be read: its key and value must be base64 of an Ed25519 public key and signature")
	ErrSignatureMismatch   = errors.New("the signature does not match: the record was changed after it was signed")
)

// checkSignature checks the signature of the record data, if it has one.
func checkSignature(data []byte, sig *Signature) SignatureCheck {
	if sig == nil {
		return SignatureCheck{}
	}
	c := SignatureCheck{Signed: true}
	key, err1 := base64.StdEncoding.DecodeString(sig.Key)
	value, err2 := base64.StdEncoding.DecodeString(sig.Value)
	if err1 != nil || err2 != nil || len(key) != ed25519.PublicKeySize || len(value) != ed25519.SignatureSize {
		c.Err = ErrSignatureUnreadable
		return c
	}
	c.Key = ed25519.PublicKey(key)
	msg, err := SignedBytes(data)
	if err != nil {
		c.Err = fmt.Errorf("signature: %w", err)
		return c
	}
	if !ed25519.Verify(c.Key, msg, value) {
		c.Err = ErrSignatureMismatch
	}
	return c
}
