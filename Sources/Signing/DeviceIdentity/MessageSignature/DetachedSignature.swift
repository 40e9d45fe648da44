/// The parts of an `Mdm-Signature` that checking it needs, read in the one shape devices send:
/// a CMS SignedData over detached data, carrying exactly one certificate and one signer, whose
/// signed attributes hold the content type (data) and the body's digest (SHA-256 or SHA-1),
/// signed with RSA. Anything else — attached content, several certificates, other algorithms,
/// BER — is not read here (nil) and goes to OpenSSL's full CMS verification instead, which
/// stays the authority: this reader only lets a known signer's message be checked without
/// OpenSSL decoding its certificate again.
struct DetachedSignature {
    enum Digest {
        case sha256, sha1
    }

    /// The signer's certificate, DER, as the message carries it.
    let certificateDER: ArraySlice<UInt8>
    let digest: Digest
    /// The digest the signer states for the body (the messageDigest attribute).
    let bodyDigest: ArraySlice<UInt8>
    /// The signed attributes as signed: their DER with the SET tag in place of `[0]`.
    let signedAttributes: [UInt8]
    let signature: ArraySlice<UInt8>

    init?(_ bytes: [UInt8]) {
        var reader = DERReader(bytes)
        guard let contentInfo = reader.next(DERTag.sequence), reader.isAtEnd else { return nil }
        var info = reader.inside(contentInfo)
        guard info.nextIsObjectIdentifier(ObjectIdentifier.signedData), let explicit = info.next(DERTag.context0), info.isAtEnd else { return nil }
        var wrapper = info.inside(explicit)
        guard let signedData = wrapper.next(DERTag.sequence), wrapper.isAtEnd else { return nil }

        var fields = wrapper.inside(signedData)
        guard Self.isVersionOne(fields.next(DERTag.integer), in: bytes), let digestAlgorithms = fields.next(DERTag.set),
              let encapsulated = fields.next(DERTag.sequence), let certificates = fields.next(DERTag.context0)
        else { return nil }
        // Detached: the encapsulated content names data and carries none.
        var content = fields.inside(encapsulated)
        guard content.nextIsObjectIdentifier(ObjectIdentifier.data), content.isAtEnd else { return nil }
        var certificateSet = fields.inside(certificates)
        guard let certificate = certificateSet.next(DERTag.sequence), certificateSet.isAtEnd else { return nil }
        _ = fields.next(DERTag.context1)  // revocation lists, unused
        guard let signerInfos = fields.next(DERTag.set), fields.isAtEnd else { return nil }
        var signers = fields.inside(signerInfos)
        guard let signerInfo = signers.next(DERTag.sequence), signers.isAtEnd else { return nil }

        var signer = signers.inside(signerInfo)
        guard Self.isVersionOne(signer.next(DERTag.integer), in: bytes), let identifier = signer.next(DERTag.sequence),
              let digestAlgorithm = signer.next(DERTag.sequence), let attributes = signer.next(DERTag.context0),
              let signatureAlgorithm = signer.next(DERTag.sequence), let signature = signer.next(DERTag.octetString)
        else { return nil }
        _ = signer.next(DERTag.context1)  // unsigned attributes, unused
        // The signer names the certificate it carries, and the one digest algorithm listed is its own.
        var listed = fields.inside(digestAlgorithms)
        guard signer.isAtEnd, let only = listed.next(DERTag.sequence), listed.isAtEnd,
              bytes[only.whole].elementsEqual(bytes[digestAlgorithm.whole]),
              Self.names(fields.inside(certificate), identifier: bytes[identifier.contents]),
              let digest = Self.digest(signer.inside(digestAlgorithm)),
              Self.isRSA(signer.inside(signatureAlgorithm), with: digest),
              let bodyDigest = Self.bodyDigest(in: signer.inside(attributes))
        else { return nil }

        certificateDER = bytes[certificate.whole]
        self.digest = digest
        self.bodyDigest = bodyDigest
        var signed = Array(bytes[attributes.whole])
        signed[0] = DERTag.set
        signedAttributes = signed
        self.signature = bytes[signature.contents]
    }

    /// Version 1: SignedData with data content and signers named by issuer and serial number.
    private static func isVersionOne(_ version: DERElement?, in bytes: [UInt8]) -> Bool {
        guard let version else { return false }
        return bytes[version.contents].elementsEqual([1])
    }

    /// Whether `identifier` (an IssuerAndSerialNumber's contents) names `certificate`, byte for byte.
    private static func names(_ certificate: DERReader, identifier: ArraySlice<UInt8>) -> Bool {
        var outer = certificate
        guard let toBeSigned = outer.next(DERTag.sequence) else { return false }
        var fields = outer.inside(toBeSigned)
        _ = fields.next(DERTag.context0)  // the certificate's version
        guard let serial = fields.next(DERTag.integer), fields.next(DERTag.sequence) != nil, let issuer = fields.next(DERTag.sequence) else {
            return false
        }
        let bytes = fields.bytes
        return identifier.elementsEqual(bytes[issuer.whole] + bytes[serial.whole])
    }

    /// The digest algorithm, its parameters absent or NULL.
    private static func digest(_ algorithm: DERReader) -> Digest? {
        var reader = algorithm
        let digest: Digest
        if reader.nextIsObjectIdentifier(ObjectIdentifier.sha256) {
            digest = .sha256
        } else {
            reader = algorithm
            guard reader.nextIsObjectIdentifier(ObjectIdentifier.sha1) else { return nil }
            digest = .sha1
        }
        return hasNoParameters(reader) ? digest : nil
    }

    /// `rsaEncryption` (what devices name), or RSA with the same digest.
    private static func isRSA(_ algorithm: DERReader, with digest: Digest) -> Bool {
        let named = [ObjectIdentifier.rsaEncryption, digest == .sha256 ? ObjectIdentifier.sha256WithRSA : ObjectIdentifier.sha1WithRSA]
        return named.contains { identifier in
            var reader = algorithm
            return reader.nextIsObjectIdentifier(identifier) && hasNoParameters(reader)
        }
    }

    private static func hasNoParameters(_ rest: DERReader) -> Bool {
        var reader = rest
        if reader.isAtEnd { return true }
        guard let null = reader.next(0x05) else { return false }
        return null.contents.isEmpty && reader.isAtEnd
    }

    /// The messageDigest attribute's value, once the attributes say the content type is data;
    /// each attribute once, with one value.
    private static func bodyDigest(in attributes: DERReader) -> ArraySlice<UInt8>? {
        var reader = attributes
        var seen: Set<[UInt8]> = []
        var contentTypeIsData = false
        var bodyDigest: ArraySlice<UInt8>?
        while !reader.isAtEnd {
            guard let attribute = reader.next(DERTag.sequence) else { return nil }
            var fields = reader.inside(attribute)
            guard let type = fields.next(DERTag.objectIdentifier), let values = fields.next(DERTag.set), fields.isAtEnd,
                  seen.insert(Array(fields.contents(of: type))).inserted
            else { return nil }
            var value = fields.inside(values)
            switch Array(fields.contents(of: type)) {
            case ObjectIdentifier.contentTypeAttribute:
                guard value.nextIsObjectIdentifier(ObjectIdentifier.data), value.isAtEnd else { return nil }
                contentTypeIsData = true
            case ObjectIdentifier.messageDigestAttribute:
                guard let octets = value.next(DERTag.octetString), value.isAtEnd else { return nil }
                bodyDigest = value.contents(of: octets)
            default:
                guard value.next() != nil, value.isAtEnd else { return nil }  // signing time and the like: signed, not read
            }
        }
        return contentTypeIsData ? bodyDigest : nil
    }

    /// Object identifiers' content octets.
    private enum ObjectIdentifier {
        static let data: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
        static let signedData: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        static let contentTypeAttribute: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x03]
        static let messageDigestAttribute: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x04]
        static let sha256: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]
        static let sha1: [UInt8] = [0x2B, 0x0E, 0x03, 0x02, 0x1A]
        static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
        static let sha256WithRSA: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B]
        static let sha1WithRSA: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x05]
    }
}
