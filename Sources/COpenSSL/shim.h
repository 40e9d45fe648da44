#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/rsa.h>
#include <openssl/bn.h>

// Function-like macros are not imported by Swift; these wrappers expose them.
static inline long copenssl_bio_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }
static inline void copenssl_free(void *pointer) { OPENSSL_free(pointer); }
#include <openssl/x509v3.h>
#include <openssl/rand.h>

// EVP_RSA_gen is a variadic macro over EVP_PKEY_Q_keygen, which Swift cannot call.
static inline EVP_PKEY *copenssl_rsa_generate(unsigned int bits) { return EVP_RSA_gen(bits); }

// XN_FLAG_RFC2253 is a composite macro; without ESC_MSB, names in UTF-8 print as themselves.
static inline unsigned long copenssl_name_print_flags(void) { return XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB; }

// Device identity (SCEP, device signatures, the push certificate).
#include <openssl/pkcs7.h>
#include <openssl/pkcs12.h>
#include <openssl/objects.h>
#include <openssl/provider.h>

// PKCS7_type_is_* are macros; SCEP must know a SignedData from an EnvelopedData before reading inside.
static inline int copenssl_pkcs7_is_signed(const PKCS7 *p7) { return PKCS7_type_is_signed(p7); }
static inline int copenssl_pkcs7_is_enveloped(const PKCS7 *p7) { return PKCS7_type_is_enveloped(p7); }
