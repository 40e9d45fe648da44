import Domain

/// Why the catalog refused a change, field by field: a page shows each message beside its
/// field, the API answers the first with its stable code (409 when the change clashes with
/// another record, 422 when it is wrong on its own).
struct CatalogRefusal: Error, Equatable {
    enum Reason: Equatable {
        /// The value breaks a rule: empty name, bad bundle ID, a group inside itself.
        case invalid
        /// Another record already holds it, or still depends on this one.
        case conflict
    }

    let reason: Reason
    /// `.validationFailed`, or the conflict's own code (`.bundleIDTaken`, `.groupNameTaken`,
    /// `.deviceExists`, `.groupNotEmpty`).
    let code: APIErrorCode
    let messages: [String: String]

    static func invalid(_ errors: ValidationErrors) -> CatalogRefusal {
        CatalogRefusal(reason: .invalid, code: .validationFailed, messages: errors.messages)
    }

    static func invalid(_ field: String, _ message: String) -> CatalogRefusal {
        CatalogRefusal(reason: .invalid, code: .validationFailed, messages: [field: message])
    }

    static func conflict(_ code: APIErrorCode, _ field: String, _ message: String) -> CatalogRefusal {
        CatalogRefusal(reason: .conflict, code: code, messages: [field: message])
    }

    /// The field an API error names: the first in a stable order.
    var firstField: (name: String, message: String) {
        messages.sorted { $0.key < $1.key }.first.map { ($0.key, $0.value) } ?? ("", "The change was refused.")
    }
}
