import Domain

/// App tunnel: the mode, and in split mode the addresses that go direct, one per line.
struct AppTunnelForm: PayloadForm {
    var modes: [SelectOption] = []
    var addresses = ""
    var errors: [String: String] = [:]

    init(_ payload: Payload?) {
        let tunnel = if case .appTunnel(let value)? = payload { value } else { AppTunnel() }
        modes = Self.modes(selected: tunnel.mode.rawValue)
        addresses = LineList.text(tunnel.directAddresses)
    }

    init(_ form: FormFields) {
        modes = Self.modes(selected: form["mode"])
        addresses = form["addresses"]
    }

    static func modes(selected: String) -> [SelectOption] {
        AppTunnel.Mode.allCases.map { SelectOption(value: $0.rawValue, label: $0.displayName, selected: $0.rawValue == selected) }
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
        return Submission(payload: .appTunnel(tunnel), errors: errors)
    }
}
