import COpenSSL

/// The SCEP signed attributes (RFC 8894 §3.2.1), registered with OpenSSL once per process.
/// OpenSSL knows them only as numbers; `OBJ_create` gives each a NID the PKCS7 attribute
/// functions take. A Swift `static let` is initialised exactly once, thread-safely, which is
/// the only shared state here and never changes afterwards.
enum SCEPAttribute: CaseIterable {
    case messageType, pkiStatus, failInfo, senderNonce, recipientNonce, transactionID

    var oid: String {
        switch self {
        case .messageType: "2.16.840.1.113733.1.9.2"
        case .pkiStatus: "2.16.840.1.113733.1.9.3"
        case .failInfo: "2.16.840.1.113733.1.9.4"
        case .senderNonce: "2.16.840.1.113733.1.9.5"
        case .recipientNonce: "2.16.840.1.113733.1.9.6"
        case .transactionID: "2.16.840.1.113733.1.9.7"
        }
    }

    private var shortName: String { "scep-\(self)" }

    /// The NID, or `NID_undef` (0) if OpenSSL could not register it (memory exhausted).
    var nid: Int32 { Self.table[self] ?? NID_undef }

    private static let table: [SCEPAttribute: Int32] = Dictionary(uniqueKeysWithValues: allCases.map { attribute in
        // Another part of the process (or OpenSSL itself, one day) may have registered it.
        let known = OBJ_txt2nid(attribute.oid)
        if known != NID_undef { return (attribute, known) }
        let created = OBJ_create(attribute.oid, attribute.shortName, "SCEP \(attribute)")
        ERR_clear_error()
        return (attribute, created)
    })
}
