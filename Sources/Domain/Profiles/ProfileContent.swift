import Foundation

/// What one version of a profile says: its name and description, and its payloads (at most
/// one of each kind). Versions are immutable; editing makes a new one.
public struct ProfileContent: Codable, Equatable, Sendable {
    public var name: String
    /// Markdown, rendered (and sanitised) for display.
    public var descriptionMarkdown: String
    public var payloads: [Payload]

    public init(name: String, descriptionMarkdown: String = "", payloads: [Payload] = []) {
        self.name = name
        self.descriptionMarkdown = descriptionMarkdown
        self.payloads = payloads
    }

    public func payload(of kind: PayloadKind) -> Payload? {
        payloads.first { $0.kind == kind }
    }

    /// The settings of the payload of that kind, if the content has one.
    public func settings<Settings: PayloadSettings>(_ type: Settings.Type) -> Settings? {
        payload(of: Settings.kind)?.settings(as: type)
    }

    /// The content with `payload` added, or replacing the payload of the same kind. Payloads
    /// stay in the registry's order, so versions compare and export stably.
    public func setting(_ payload: Payload) -> ProfileContent {
        var copy = self
        copy.payloads = (payloads.filter { $0.kind != payload.kind } + [payload])
            .sorted { PayloadRegistry.order(of: $0.kind) < PayloadRegistry.order(of: $1.kind) }
        return copy
    }

    public func removing(_ kind: PayloadKind) -> ProfileContent {
        var copy = self
        copy.payloads.removeAll { $0.kind == kind }
        return copy
    }
}

/// The profile's fixed parts and the rules for them: the identifier is the profile's identity
/// on a device (installing one with the same identifier replaces it), so it never changes.
public enum ProfileRules {
    /// Every problem with a profile's name and description (and, when creating, identifier):
    /// what the page shows beside each field and the API answers with the field's name.
    public static func validate(name: String, descriptionMarkdown: String, identifier: String? = nil) -> ValidationErrors {
        var errors = ValidationErrors()
        errors["name"] = nameProblem(name)
        errors["description"] = descriptionProblem(descriptionMarkdown)
        if let identifier { errors["identifier"] = identifierProblem(identifier) }
        return errors
    }

    public static let maximumNameLength = 120

    public static func nameProblem(_ name: String) -> String? {
        let trimmed = name.trimmingWhitespace()
        if trimmed.isEmpty { return "Enter a name people will recognise, such as “Lobby kiosk lockdown”." }
        if trimmed.count > maximumNameLength { return "Keep the name to \(maximumNameLength) characters or fewer." }
        return PlainText.problem(trimmed)
    }

    /// Reverse-DNS like a bundle ID; the console suggests one from the organisation and name.
    public static func identifierProblem(_ identifier: String) -> String? {
        if let problem = BundleID.problem(identifier) {
            return problem.replacingOccurrences(of: "bundle ID", with: "identifier")
        }
        return nil
    }

    public static let maximumDescriptionLength = 20_000

    public static func descriptionProblem(_ markdown: String) -> String? {
        if PlainText.length(markdown) > maximumDescriptionLength { return "Keep the description under 20,000 characters." }
        return PlainText.problem(markdown, lines: .multiple)
    }

    /// "Lobby kiosk lockdown" in organisation "com.example" → "com.example.lobby-kiosk-lockdown".
    public static func suggestedIdentifier(prefix: String, name: String) -> String {
        var slug = ""
        for character in name.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                slug.append(character)
            } else if !slug.isEmpty && slug.last != "-" {
                slug.append("-")
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return prefix + "." + (slug.isEmpty ? "profile" : slug)
    }
}
