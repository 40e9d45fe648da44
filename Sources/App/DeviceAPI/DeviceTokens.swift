import Domain
import Foundation
import Hummingbird
import Storage

/// A device as its check-in token identifies it, with the policy generation read in the same
/// statement so the check-in cache needs no second query.
struct CheckingInDevice: Decodable, Sendable {
    let id: RecordID<DeviceRecord>
    let udid: String
    let name: String
    let groupID: RecordID<DeviceGroupRecord>?
    let lastCheckInAt: Date?
    let generation: Int64
}

/// Device tokens: minted at enrollment, shown once, kept as SHA-256 like API tokens.
package enum DeviceTokens {
    /// Distinct from API tokens' `pct_`, so each middleware knows its own at a glance.
    static let prefix = "pcd_"

    package static func mint() -> (token: String, hash: String) {
        let token = prefix + SecretToken.generate()
        return (token, SecretToken.digest(token))
    }

    /// The device whose token hashes to `hash`, read from the database (`DeviceTokenCache`
    /// keeps what this finds).
    static func find(hash: String, in database: Database) async throws -> CheckingInDevice? {
        try await database.readSingleStatement { connection in
            try connection.fetchOne(CheckingInDevice.self, """
                SELECT d.id, d.udid, d.name, d.groupID, d.lastCheckInAt, g.value AS generation
                FROM devices d, policy_generation g WHERE d.tokenHash = \(hash)
                """)
        }
    }
}

/// Identifies devices on the device API by `Authorization: Bearer pcd_…`. An unknown token is
/// refused here with a stable code; a missing one is refused by the route's `.device` access.
struct DeviceTokenMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let devices: DeviceTokenCache

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            return try await next(request, context)
        }
        let token = String(header.dropFirst("bearer ".count)).trimmingWhitespace()
        guard let device = try await devices.device(forToken: token) else {
            throw APIError(status: .unauthorized, code: .invalidDeviceToken, message: "The device token is unknown or the device was removed.")
        }
        var context = context
        context.device = device
        return try await next(request, context)
    }
}
