package lti

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
)

var rs256 = jwa.RS256()

// ToolKey is pigclass's own signing key for its platforms (the client
// assertions of its access-token requests), published at its JWKS
// address. It is kept in the database sealed with the server's key
// (Seal), so a copy of the database alone does not hold it.
type ToolKey struct {
	ID  string // its kid: the SHA-256 of its public key, in hex (16 bytes)
	Key *rsa.PrivateKey
}

// NewToolKey draws a new RSA-2048 key.
func NewToolKey() (ToolKey, error) {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return ToolKey{}, err
	}
	return toolKey(k), nil
}

func toolKey(k *rsa.PrivateKey) ToolKey {
	pub := x509.MarshalPKCS1PublicKey(&k.PublicKey)
	sum := sha256.Sum256(pub)
	return ToolKey{ID: fmt.Sprintf("%x", sum[:16]), Key: k}
}

// Box seals plain with a key derived from the server's key for purpose
// (AES-256-GCM; aad is bound to it without being sealed), as URL-safe
// base64: what only this server (or its district) can open.
func Box(serverKey []byte, purpose string, plain, aad []byte) (string, error) {
	aead, err := gcm(serverKey, purpose)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, aead.NonceSize())
	rand.Read(nonce)
	return base64.RawURLEncoding.EncodeToString(aead.Seal(nonce, nonce, plain, aad)), nil
}

// Unbox opens what Box sealed for purpose with the same server key.
func Unbox(serverKey []byte, purpose, boxed string, aad []byte) ([]byte, error) {
	aead, err := gcm(serverKey, purpose)
	if err != nil {
		return nil, err
	}
	sealed, err := base64.RawURLEncoding.DecodeString(boxed)
	if err != nil || len(sealed) < aead.NonceSize() {
		return nil, errors.New("lti: not a sealed box")
	}
	return aead.Open(nil, sealed[:aead.NonceSize()], sealed[aead.NonceSize():], aad)
}

func gcm(serverKey []byte, purpose string) (cipher.AEAD, error) {
	mac := hmac.New(sha256.New, serverKey)
	mac.Write([]byte(purpose))
	block, err := aes.NewCipher(mac.Sum(nil))
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

const toolKeyPurpose = "pigclass-lti-tool-key-v1"

// Seal is the key sealed with the server's key (Box), as stored.
func (t ToolKey) Seal(serverKey []byte) (string, error) {
	return Box(serverKey, toolKeyPurpose, x509.MarshalPKCS1PrivateKey(t.Key), []byte(t.ID))
}

// OpenToolKey opens a key Seal sealed with the same server key.
func OpenToolKey(id, stored string, serverKey []byte) (ToolKey, error) {
	plain, err := Unbox(serverKey, toolKeyPurpose, stored, []byte(id))
	if err != nil {
		return ToolKey{}, fmt.Errorf("lti: the tool key %s does not open with this server's key (was the key file replaced?): %w", id, err)
	}
	k, err := x509.ParsePKCS1PrivateKey(plain)
	if err != nil {
		return ToolKey{}, err
	}
	return toolKey(k), nil
}

// JWKS is the public keys of keys as a JSON Web Key Set, for the
// platforms to check pigclass's signatures with.
func JWKS(keys []ToolKey) ([]byte, error) {
	set := jwk.NewSet()
	for _, t := range keys {
		k, err := jwk.Import(&t.Key.PublicKey)
		if err != nil {
			return nil, err
		}
		for name, v := range map[string]any{jwk.KeyIDKey: t.ID, jwk.AlgorithmKey: rs256, jwk.KeyUsageKey: "sig"} {
			if err := k.Set(name, v); err != nil {
				return nil, err
			}
		}
		if err := set.AddKey(k); err != nil {
			return nil, err
		}
	}
	return json.Marshal(set)
}
