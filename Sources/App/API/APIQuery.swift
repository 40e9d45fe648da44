import Domain
import Hummingbird
import Storage

/// Query parameters of API list routes, read strictly: a limit or id that is not a whole number
/// in range is a 400 naming the parameter, never quietly replaced by a default.
enum APIQuery {
    static let defaultLimit = 100
    static let maximumLimit = 500

    /// The value of `name` as a whole number in `range`; nil when the parameter is absent.
    static func integer(_ name: String, of request: Request, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = request.uri.formParameters[Substring(name)].map(String.init) else { return nil }
        guard !text.isEmpty, text.count <= 19, text.allSatisfy(\.isASCIIDigit), let value = Int(text), range.contains(value) else {
            throw APIError(status: .badRequest, code: .invalidQuery,
                           message: "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound).", field: name)
        }
        return value
    }

    /// `true` or `false`; nil when the parameter is absent.
    static func bool(_ name: String, of request: Request) throws -> Bool? {
        switch request.uri.formParameters[Substring(name)].map(String.init) {
        case nil: return nil
        case "true": return true
        case "false": return false
        default: throw APIError(status: .badRequest, code: .invalidQuery, message: "\(name) must be true or false.", field: name)
        }
    }

    /// Refuses a query parameter the route does not take, as unknown body fields are refused:
    /// a misspelt `dryRun` must not turn a preview into the change itself.
    static func refuseUnknown(of request: Request, allowed: Set<String>) throws {
        guard let unknown = request.uri.formParameters.map({ String($0.key) }).sorted().first(where: { !allowed.contains($0) }) else { return }
        throw APIError(status: .badRequest, code: .unknownQueryParameter,
                       message: "\(unknown.clipped(to: 40)) is not a parameter of this route\(allowed.isEmpty ? "" : "; it takes \(allowed.sorted().joined(separator: ", "))").",
                       field: String(unknown.clipped(to: 40)))
    }

    /// Items per page: `limit`, 1 to `maximumLimit`, or the default.
    static func limit(of request: Request) throws -> Int {
        try integer("limit", of: request, in: 1...maximumLimit) ?? defaultLimit
    }

    static func id<Record>(_ name: String, of request: Request) throws -> RecordID<Record>? {
        try integer(name, of: request, in: 1...Int(Int64.max)).map { RecordID(Int64($0)) }
    }
}
