import Domain
/// The version an `If-Match` header names, for saving a profile without losing someone
/// else's change: `"3"` as the ETag gives it, `W/"3"`, `3`, or `*` for whatever version is
/// current (RFC 9110: the client knowingly saves over it).
enum IfMatch: Equatable {
    case anyVersion
    case version(Int)

    /// nil for anything else, which the API answers with 400 `malformed_if_match`.
    init?(_ header: String) {
        if header == "*" {
            self = .anyVersion
            return
        }
        var tag = Substring(header)
        if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
        if tag.hasPrefix("\"") {
            guard tag.count >= 2, tag.hasSuffix("\"") else { return nil }
            tag = tag.dropFirst().dropLast()
        }
        guard (1...18).contains(tag.count), tag.allSatisfy(\.isASCIIDigit), let number = Int(tag) else { return nil }
        self = .version(number)
    }

    /// The version the save is based on; nil saves over any.
    var baseVersion: Int? {
        switch self {
        case .anyVersion: nil
        case .version(let number): number
        }
    }
}
