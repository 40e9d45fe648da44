import Domain

/// Two versions of a profile compared payload by payload in the forms' words: the profile's
/// name and description, then each payload added, removed or changed — a changed one with
/// only the settings that changed — and the payloads that stayed the same named on one line.
struct VersionDiff {
    struct Row {
        let label: String
        let before: String
        let after: String
        let beforeSwatch: String?
        let afterSwatch: String?
        let beforeImage: String?
        let afterImage: String?

        init(label: String, before: PayloadFields.Field?, after: PayloadFields.Field?) {
            self.label = label
            self.before = before?.value ?? "—"
            self.after = after?.value ?? "—"
            beforeSwatch = before?.swatch
            afterSwatch = after?.swatch
            beforeImage = before?.image
            afterImage = after?.image
        }
    }

    struct Section {
        let title: String
        let status: String
        let rows: [Row]
    }

    let sections: [Section]
    let unchanged: String?
    let isEmpty: Bool
    /// The two value columns' headings: "Version 2" and "Version 3", or "Now" and "After".
    let beforeHeading: String
    let afterHeading: String

    init(from old: ProfileContent, to new: ProfileContent, headings: (before: String, after: String)) {
        (beforeHeading, afterHeading) = headings
        var sections: [Section] = []
        var profileRows: [Row] = []
        if old.name != new.name {
            profileRows.append(Row(label: "Name", before: .init(label: "Name", value: old.name), after: .init(label: "Name", value: new.name)))
        }
        if old.descriptionMarkdown != new.descriptionMarkdown {
            profileRows.append(Row(label: "Description", before: .init(label: "Description", value: old.descriptionMarkdown),
                                   after: .init(label: "Description", value: new.descriptionMarkdown)))
        }
        if !profileRows.isEmpty { sections.append(Section(title: "Profile", status: "changed", rows: profileRows)) }
        var unchanged: [String] = []
        for kind in PayloadKind.allCases {
            let before = old.payload(of: kind).map(PayloadFields.fields), after = new.payload(of: kind).map(PayloadFields.fields)
            switch (before, after) {
            case (nil, nil):
                continue
            case (nil, let added?):
                sections.append(Section(title: kind.displayName, status: "added", rows: added.map { Row(label: $0.label, before: nil, after: $0) }))
            case (let removed?, nil):
                // One row: the settings of a payload that went are in the version before.
                let gone = PayloadFields.Field(label: "", value: removed.count == 1 ? "1 setting" : "\(removed.count) settings")
                sections.append(Section(title: kind.displayName, status: "removed",
                                        rows: [Row(label: "The whole payload", before: gone, after: .init(label: "", value: "removed"))]))
            case (let before?, let after?):
                var labels = before.map(\.label)
                for field in after where !labels.contains(field.label) { labels.append(field.label) }
                let rows = labels.compactMap { label -> Row? in
                    let was = before.first { $0.label == label }, now = after.first { $0.label == label }
                    return was == now ? nil : Row(label: label, before: was, after: now)
                }
                if rows.isEmpty { unchanged.append(kind.displayName) } else { sections.append(Section(title: kind.displayName, status: "changed", rows: rows)) }
            }
        }
        self.sections = sections
        self.unchanged = unchanged.isEmpty ? nil : unchanged.joined(separator: ", ")
        isEmpty = sections.isEmpty
    }
}
