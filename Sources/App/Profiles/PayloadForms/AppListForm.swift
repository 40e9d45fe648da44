import Domain

/// A payload form that is an ordered list of bundle IDs (the ASAM allowlist, required apps).
/// Adding, removing and moving entries are form buttons, so the list can be edited without
/// JavaScript. A conforming form declares where its list lives in a payload and which
/// settings a list makes; the rest is here.
protocol AppListForm: PayloadForm {
    var entries: [AppListEntry] { get set }
    /// Stored, not computed: Mustache reads stored properties only.
    var listError: String? { get set }
    init()
    /// The list a stored payload holds; nil for a payload of another kind.
    static func apps(in payload: Payload?) -> [String]?
    /// The settings a submitted list makes, validated by the caller.
    static func settings(_ apps: [String]) -> (payload: Payload, errors: ValidationErrors)
}

struct AppListEntry {
    let index: Int
    let number: Int
    let value: String
    let error: String?
    let isFirst: Bool
    /// The entry a list button just touched (the one added, the one moved, the one now where a
    /// removed one was) takes the focus, so a keyboard user carries on where they were rather
    /// than at the top of the page.
    var focus = false
}

extension AppListForm {
    init(_ payload: Payload?) {
        self.init()
        entries = Self.entries(Self.apps(in: payload) ?? [""], errors: [:])
    }

    init(_ form: FormFields) {
        self.init()
        entries = Self.entries(Self.revised(form), errors: [:])
        if let touched = Self.touched(by: form["intent"], count: entries.count) { entries[touched].focus = true }
    }

    /// The entry a list button leaves the focus on; nil for a save.
    static func touched(by intent: String, count: Int) -> Int? {
        guard count > 0 else { return nil }
        if intent == "add" { return count - 1 }
        if intent.hasPrefix("remove."), let index = Int(intent.dropFirst(7)) { return min(max(index, 0), count - 1) }
        if intent.hasPrefix("up."), let index = Int(intent.dropFirst(3)), index > 0 { return min(index - 1, count - 1) }
        return nil
    }

    /// Messages go beside their entries, the list's own above the list.
    mutating func show(_ errors: [String: String]) {
        let focused = entries.firstIndex(where: \.focus)
        entries = Self.entries(entries.map(\.value), errors: errors)
        if let focused, entries.indices.contains(focused) { entries[focused].focus = true }
        listError = errors["apps"]
    }

    static func entries(_ values: [String], errors: [String: String]) -> [AppListEntry] {
        values.enumerated().map { index, value in
            AppListEntry(index: index, number: index + 1, value: value, error: errors["apps.\(index)"], isFirst: index == 0)
        }
    }

    /// The list after the button that was pressed: add a row, remove one, or move one up.
    static func revised(_ form: FormFields) -> [String] {
        var values = form.all("apps").map { $0.trimmingWhitespace() }
        let intent = form["intent"]
        if intent == "add" {
            values.append("")
        } else if intent.hasPrefix("remove."), let index = Int(intent.dropFirst(7)), values.indices.contains(index) {
            values.remove(at: index)
        } else if intent.hasPrefix("up."), let index = Int(intent.dropFirst(3)), index > 0, values.indices.contains(index) {
            values.swapAt(index, index - 1)
        }
        return values.isEmpty ? [""] : values
    }

    static func submitted(_ form: FormFields) -> Submission {
        let isSave = form["intent"].isEmpty || form["intent"] == "save"
        // Blank rows are left-over "add" clicks, not entries.
        let made = settings(revised(form).filter { !$0.isEmpty })
        return Submission(payload: made.payload, errors: isSave ? made.errors : ValidationErrors(), isRevision: !isSave)
    }
}
