import Domain

/// App tunnel: the mode, and in split mode the addresses that go direct, one per line.
struct AppTunnelForm: PayloadForm {
    var modes: [SelectOption] = []
    var addresses = ""
    var errors: [String: String] = [:]

    init(_ payload: Payload?) {
        let tunnel = if let value = payload?.settings(as: AppTunnel.self) { value } else { AppTunnel() }
        modes = SelectOption.cases(\AppTunnel.Mode.displayName, selected: tunnel.mode.rawValue)
        addresses = LineList.text(tunnel.directAddresses)
    }

    init(_ form: FormFields) {
        modes = SelectOption.cases(\AppTunnel.Mode.displayName, selected: form["mode"])
        addresses = form["addresses"]
    }

    static func submitted(_ form: FormFields) -> Submission {
        let entries = LineList.entries(form["addresses"])
        guard let mode = AppTunnel.Mode(rawValue: form["mode"]) else {
            var errors = ValidationErrors()
            errors["mode"] = "Choose what goes through the tunnel."
            return Submission(payload: nil, errors: errors)
        }
        let tunnel = AppTunnel(mode: mode, directAddresses: entries)
        var errors = ValidationErrors()
        if let message = LineList.message("addresses", in: tunnel.validate(), entries: entries) { errors["addresses"] = message }
        return Submission(payload: Payload(tunnel), errors: errors)
    }
}

/// How pages show AppTunnel payloads; its form is `AppTunnelForm`.
extension AppTunnel: PayloadPresentation {
    static var formType: any PayloadForm.Type { AppTunnelForm.self }

    var summaryLines: [String] {
        mode == .everything ? ["Every address through the tunnel"]
            : ["All but \(directAddresses.count) address(es) through the tunnel: " + directAddresses.joined(separator: ", ")]
    }

    var labelledFields: [PayloadFields.Field] {
        [PayloadFields.Field(label: "What goes through the tunnel", value: mode.displayName),
         PayloadFields.Field(label: "Addresses that go direct", value: directAddresses.isEmpty ? "None" : directAddresses.joined(separator: ", "))]
    }
}
