/// A device group's name as an admin enters it, on the page or through the API.
public struct GroupDraft: Equatable, Sendable {
    public static let maximumNameLength = 80

    public var name: String

    public init(name: String) {
        self.name = name
    }

    public var normalised: GroupDraft { GroupDraft(name: name.trimmingWhitespace()) }

    public func validate() -> ValidationErrors {
        var errors = ValidationErrors()
        let name = normalised.name
        if name.isEmpty { errors["name"] = "Enter a name, such as “Lobby kiosks”." }
        else if name.count > Self.maximumNameLength { errors["name"] = "Keep the name to 80 characters or fewer." }
        else if let problem = PlainText.problem(name) { errors["name"] = problem }
        return errors
    }
}
