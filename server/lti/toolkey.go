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

// sealKey is the AES key the tool keys are sealed with, derived from the
// server's key.
func sealKey(serverKey []byte) []byte {
	mac := hmac.New(sha256.New, serverKey)
	mac.Write([]byte("pigclass-lti-tool-key-v1"))
	return mac.Sum(nil)
}

func gcm(serverKey []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(sealKey(serverKey))
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// Seal is the key sealed with the server's key (AES-256-GCM), in
// base64, as stored.
func (t ToolKey) Seal(serverKey []byte) (string, error) {
	aead, err := gcm(serverKey)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, aead.NonceSize())
	rand.Read(nonce)
	return base64.StdEncoding.EncodeToString(aead.Seal(nonce, nonce, x509.MarshalPKCS1PrivateKey(t.Key), []byte(t.ID))), nil
}

// OpenToolKey opens a key Seal sealed with the same server key.
func OpenToolKey(id, stored string, serverKey []byte) (ToolKey, error) {
	aead, err := gcm(serverKey)
	if err != nil {
		return ToolKey{}, err
	}
	sealed, err := base64.StdEncoding.DecodeString(stored)
	if err != nil {
		return ToolKey{}, fmt.Errorf("lti: the tool key %s: %w", id, err)
	}
	if len(sealed) < aead.NonceSize() {
		return ToolKey{}, errors.New("lti: the tool key is cut short")
	}
	plain, err := aead.Open(nil, sealed[:aead.NonceSize()], sealed[aead.NonceSize():], []byte(id))
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
