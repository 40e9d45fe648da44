import Domain
import Foundation
import Hummingbird
import HummingbirdCore

/// Refuses an address that spells the NUL character (`%00`) in its path or query, naming the
/// parameter: no field of the console accepts it and PostgreSQL cannot store or compare it,
/// so `?app=%00` gets the same 400 on either backend instead of reaching a query. Bodies are
/// caught where their text is bound (`StorageError.textWithNUL`). A scan of the raw address
/// for `%00` comes first, so other requests pay only that.
struct NULRefusalMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if Self.spellsNUL(request.uri.description) { throw Self.refusal(request.uri) }
        return try await next(request, context)
    }

    static func spellsNUL(_ address: String) -> Bool {
        var address = address
        return address.withUTF8 { bytes in
            guard bytes.count >= 3 else { return false }
            for index in 0..<(bytes.count - 2) where bytes[index] == UInt8(ascii: "%") && bytes[index + 1] == UInt8(ascii: "0") && bytes[index + 2] == UInt8(ascii: "0") {
                return true
            }
            return false
        }
    }

    private static func refusal(_ uri: URI) -> APIError {
        let named = uri.queryParameters.first { name, value in name.contains("\0") || value.contains("\0") }
        guard let named else {
            return APIError(status: .badRequest, code: .badRequest, message: "The address holds the NUL character (%00), which no part of the console accepts.")
        }
        let name = String(named.key).replacingOccurrences(of: "\0", with: "\\0").clipped(to: 40)
        return APIError(status: .badRequest, code: .invalidParameter,
                        message: "\(name) holds the NUL character (%00), which no field accepts.", field: name)
    }
}
