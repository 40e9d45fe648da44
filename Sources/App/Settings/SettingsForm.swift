import Domain
import Foundation

/// The settings form as typed: values stay text so a refused save shows them as entered, each
/// message beside its field.
struct SettingsForm {
    var logCapMegabytes = ""
    var logRetentionDays = ""
    var organisationName = ""
    var showsDemoStories = false
    var checkInIntervalMinutes = ""
    var errors = FieldErrors()

    static let capRange = 1...100_000
    static let retentionRange = 1...365

    init(_ settings: ConsoleSettings) {
        logCapMegabytes = String(settings.logCapBytes >> 20)
        logRetentionDays = String(settings.logRetentionDays)
        organisationName = settings.organisationName
        showsDemoStories = settings.showsDemoStories
        checkInIntervalMinutes = String(settings.checkInIntervalMinutes)
    }

    init(_ fields: FormFields) {
        logCapMegabytes = fields["logCapMegabytes"].trimmingCharacters(in: .whitespaces)
        logRetentionDays = fields["logRetentionDays"].trimmingCharacters(in: .whitespaces)
        organisationName = fields["organisationName"].trimmingCharacters(in: .whitespaces)
        showsDemoStories = fields["showsDemoStories"] == "yes"
        checkInIntervalMinutes = fields["checkInIntervalMinutes"].trimmingCharacters(in: .whitespaces)
    }

    /// The settings, or nil with `errors` filled in for every field that is wrong.
    mutating func validated() -> ConsoleSettings? {
        var settings = ConsoleSettings()
        if let megabytes = Int(logCapMegabytes), Self.capRange.contains(megabytes) {
            settings.logCapBytes = megabytes << 20
        } else {
            errors["logCapMegabytes"] = "Enter a whole number of megabytes from \(Self.capRange.lowerBound) to \(Self.capRange.upperBound.formatted())."
        }
        if let days = Int(logRetentionDays), Self.retentionRange.contains(days) {
            settings.logRetentionDays = days
        } else {
            errors["logRetentionDays"] = "Enter a whole number of days from \(Self.retentionRange.lowerBound) to \(Self.retentionRange.upperBound)."
        }
        // It goes into every exported profile's XML: the text rule every stored name follows.
        if organisationName.count > ConsoleSettings.maximumOrganisationName {
            errors["organisationName"] = "Keep the organisation name to \(ConsoleSettings.maximumOrganisationName) characters."
        } else if let problem = PlainText.problem(organisationName) {
            errors["organisationName"] = problem
        } else {
            settings.organisationName = organisationName
        }
        // Left empty, the interval is the default, which the box then shows.
        if checkInIntervalMinutes.isEmpty {
            settings.checkInIntervalMinutes = ConsoleSettings().checkInIntervalMinutes
        } else if let minutes = Int(checkInIntervalMinutes), ConsoleSettings.checkInIntervalRange.contains(minutes) {
            settings.checkInIntervalMinutes = minutes
        } else {
            let range = ConsoleSettings.checkInIntervalRange
            errors["checkInIntervalMinutes"] = "Enter a whole number of minutes from \(range.lowerBound) to \(range.upperBound.formatted()) (a day)."
        }
        settings.showsDemoStories = showsDemoStories
        return errors.isEmpty ? settings : nil
    }
}
