import Domain
import Storage

/// What a payload must meet against the catalog, beyond its own validation: managed app
/// configuration only reaches managed apps, so configuring an app the catalog lists as
/// user-installed is refused when it is written (an app not in the catalog yet is allowed).
/// The payload forms and the API both call this.
enum PayloadCatalogRules {
    static func problems(_ payload: Payload, in connection: Connection) throws -> ValidationErrors {
        guard let config = payload.settings(as: ManagedAppConfiguration.self) else { return ValidationErrors() }
        let app = try connection.fetchOne(AppRecord.query().filter("bundleID", .equal, config.appIdentifier))
        return config.validate(appIsManaged: app?.isManaged)
    }
}
