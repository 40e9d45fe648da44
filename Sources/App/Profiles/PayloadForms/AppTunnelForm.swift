import Domain

/// App tunnel: the mode, and in split mode the addresses that go direct, one per line.
struct AppTunnelForm: PayloadForm {
    var modes: [SelectOption] = []
    var addresses = ""
    var errors: [String: String] = [:]

    init(_ payload: Payload?) {
        let tunnel = if case .appTunnel(let value)? = payload { value } else { AppTunnel() }
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
        return Submission(payload: .appTunnel(tunnel), errors: errors)
    }
}
