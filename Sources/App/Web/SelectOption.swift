import Domain
import Mustache
import Storage

/// One `<option>` of a select box, as every form and filter bar renders it.
struct SelectOption {
    let value: String
    let label: String
    let selected: Bool
}

extension SelectOption {
    /// A group, indented by its depth in the tree.
    init(group: DeviceGroupRecord, depth: Int, selected: Bool) {
        self.init(value: group.id.description, label: String(repeating: "— ", count: depth) + group.name, selected: selected)
    }

    /// Groups in tree order, each indented by its depth ("— Ward 3" inside "Clinics"), after
    /// `first` (the "none" or "every" choice); `excluding` leaves out a group and everything
    /// inside it (a group cannot move inside itself).
    static func groups(_ groups: [DeviceGroupRecord], first: SelectOption, selected: RecordID<DeviceGroupRecord>?,
                       excluding: RecordID<DeviceGroupRecord>? = nil) -> [SelectOption] {
        let tree = GroupTree(groups)
        let choices = GroupsController.treeOrder(groups).filter { entry in
            excluding.map { !tree.lineage(of: entry.group.id).contains($0) } ?? true
        }
        return [first] + choices.map { SelectOption(group: $0.group, depth: $0.depth, selected: $0.group.id == selected) }
    }
}

// Select boxes list every app or group on hot pages (the log viewer, the device list): answer
// the template engine without reflection.
extension SelectOption: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "value": value
        case "label": label
        case "selected": selected
        default: nil
        }
    }
}

extension SelectOption {
    /// One option per case of a domain choice, labelled in its words, the one sent chosen: a
    /// radio group or select that comes back as it was sent.
    static func cases<Choice: CaseIterable & RawRepresentable<String>>(_ label: (Choice) -> String, selected: String) -> [SelectOption] {
        Choice.allCases.map { SelectOption(value: $0.rawValue, label: label($0), selected: $0.rawValue == selected) }
    }
}
