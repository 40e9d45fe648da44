import Mustache

/// The addresses templates use without values, by name — `href="{{site.devices}}"`,
/// `action="{{site.addUser}}"` — taken from the declarations in `Site`, so a template names
/// a page and never types its address. A help page is `{{#site.helpTopic}}payloads/dlp{{/site.helpTopic}}`.
/// Every page's scope and the layout carry them; `SiteLinksTests` checks each name a template
/// uses is here and each help topic exists.
struct SiteLinks: MustacheParent {
    static let byName: [String: String] = [
        "home": Site.home.link(),
        "dashboard": Site.dashboard.link(),
        "signIn": Site.Accounts.signIn.link(),
        "signOut": Site.Accounts.signOut.link(),
        "password": Site.Accounts.passwordForm.link(),
        "changePassword": Site.Accounts.changePassword.link(),
        "addUser": Site.Accounts.addUser.link(),
        "apps": Site.Apps.list.link(),
        "groups": Site.Groups.list.link(),
        "devices": Site.Devices.list.link(),
        "newDevice": Site.Devices.new.link(),
        "bulkDevices": Site.Devices.bulk.link(),
        "newSimulator": Site.Simulator.new.link(),
        "profiles": Site.Profiles.list.link(),
        "addProfile": Site.Profiles.add.link(),
        "importProfile": Site.Profiles.importFile.link(),
        "uploadSigningIdentity": Site.Signing.upload.link(),
        "uploadPushCertificate": Site.Enrollment.uploadPushCertificate.link(),
        "createEnrollmentLink": Site.Enrollment.createLink.link(),
        "uploadDeviceAuthority": Site.Enrollment.uploadAuthority.link(),
        "issueToken": Site.Tokens.issue.link(),
        "apiDocument": Site.apiDocument.link(),
        "logs": Site.Logs.index.link(),
        "crashGroups": Site.Logs.crashGroups.link(),
        "exportChosenLogs": Site.Logs.exportChosen.link(),
        "deleteChosenLogs": Site.Logs.delete.link(),
        "settings": Site.Settings.page.link(),
        "saveSettings": Site.Settings.save.link(),
        "purgeLogs": Site.Settings.purgeNow.link(),
        "audit": Site.Audit.log.link(),
        "help": Site.Help.index.link(),
        "tour": Site.Tour.page.link(),
    ]

    /// The lambda that makes a help page's address from the topic between its tags.
    static let helpTopic = "helpTopic"

    func child(named name: String) -> Any? {
        name == Self.helpTopic ? MustacheLambda { topic in Site.Help.page(topic) } : Self.byName[name]
    }
}
