import Foundation
import Signing
import Synchronization

/// The console's signing identity: generated on first start in the data directory (key readable
/// by the owner only), or replaced by one an admin uploads.
final class SigningService: Sendable {
    private let directory: String
    private let identity: Mutex<SigningIdentity?>

    init(dataDirectory: String) {
        directory = (dataDirectory as NSString).appendingPathComponent("signing")
        identity = Mutex(nil)
    }

    /// Loads (or creates) the identity on first use, so tests that never sign never generate one.
    func current() throws -> SigningIdentity {
        try identity.withLock { cached in
            if let cached { return cached }
            let loaded = try SigningIdentity.loadOrCreate(in: directory, commonName: "Payload Console Profile Signing",
                                                          organization: "Payload Console")
            cached = loaded
            return loaded
        }
    }

    func sign(_ content: [UInt8]) throws -> [UInt8] {
        try ProfileSigner.sign(content, with: current())
    }

    func replace(with newIdentity: SigningIdentity) throws {
        try newIdentity.save(in: directory)
        identity.withLock { $0 = newIdentity }
    }
}
