import Domain
import Mustache

/// What the simulator's typed controls hold: their starting values, or after a refused action
/// the values that were sent and the message beside the field that was wrong.
struct SimulatorControlInputs: Sendable {
    var copyText = "Patient 4711, room 3"
    var logMessage = "Check-in screen shown"
    var logCount = "1"
    var latitude = ""
    var longitude = ""
    var minutes = "60"
    var url = "https://api.northwind.example/orders"
    var link = "https://intranet.example.com/news"
    var mailto = "helpdesk@example.com"
    /// The iOS and app version boxes show the device's versions unless a refused update sent
    /// another; both send the field `version`, so which box is meant comes from the action.
    var osVersion: String?
    var appVersion: String?
    /// Messages keyed by the control's field name (`text`, `message`, `count`, `latitude`, …).
    private(set) var errors = FieldErrors()
    /// A message about a field the page does not show as a box (the action, the app, a choice).
    private(set) var generalError: String?

    /// The fields a person types into; a problem with any other field is about the page itself.
    private static let typedFields: Set = ["text", "message", "count", "latitude", "longitude", "minutes", "passcode", "url", "address"]

    init() {}

    /// Untouched boxes get the story's own sample text: a patient's name in the clinic, an
    /// order on the road. What a person typed (a refused action) stays.
    func withSampleText(of story: DemoStory?) -> SimulatorControlInputs {
        guard let story else { return self }
        var inputs = self
        if inputs.copyText == Self().copyText { inputs.copyText = story.copyText }
        if inputs.logMessage == Self().logMessage { inputs.logMessage = story.logMessage }
        return inputs
    }

    /// The controls as a refused action sent them. The passcode is never sent back.
    init(refused form: FormFields, problem: SimulatorActionParser.Problem) {
        let fields: [(String, WritableKeyPath<Self, String>)] = [
            ("text", \.copyText), ("message", \.logMessage), ("count", \.logCount),
            ("latitude", \.latitude), ("longitude", \.longitude), ("minutes", \.minutes), ("address", \.mailto),
        ]
        for (name, keyPath) in fields where form.all(name).first != nil {
            self[keyPath: keyPath] = form[name]
        }
        let action = SimulatorAction.Name(rawValue: form["action"])
        // Connect and open-link both send `url`; the box is the action's.
        let urlBox = action == .openLink ? "link" : "url"
        if form.all("url").first != nil { if urlBox == "link" { link = form["url"] } else { url = form["url"] } }
        let versionBox = action == .setOSVersion ? "osVersion" : "appVersion"
        if problem.field == "url" {
            errors[urlBox] = problem.message
        } else if problem.field == "address" {
            errors["mailto"] = problem.message
        } else if problem.field == "version" {
            if versionBox == "osVersion" { osVersion = form["version"] } else { appVersion = form["version"] }
            errors[versionBox] = problem.message
        } else if Self.typedFields.contains(problem.field) {
            errors[problem.field] = problem.message
        } else {
            generalError = problem.message
        }
    }
}

extension SimulatorControlInputs: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "copyText": copyText
        case "logMessage": logMessage
        case "logCount": logCount
        case "latitude": latitude
        case "longitude": longitude
        case "minutes": minutes
        case "url": url
        case "link": link
        case "mailto": mailto
        case "osVersion": osVersion
        case "appVersion": appVersion
        case "generalError": generalError
        default:
            // `textError`, `latitudeError`, …: the message beside that field.
            name.hasSuffix("Error") ? errors[String(name.dropLast("Error".count))] : nil
        }
    }
}
