import Domain
import HTTPTypes
import Storage

extension Site {
    /// Profiles: the list, each profile's page, its versions, payload forms and assignments.
    enum Profiles {
        typealias ProfileVersion = PathPair<RecordID<ProfileRecord>, Int>
        typealias ProfilePayload = PathPair<RecordID<ProfileRecord>, PayloadKind>
        typealias ProfileAssignment = PathPair<RecordID<ProfileRecord>, RecordID<DeviceGroupRecord>>

        static let list = SiteRoute<NoValues>(.get, "/profiles", role: .viewer)
        static let add = SiteRoute<NoValues>(.post, "/profiles", role: .admin)
        static let importFile = SiteRoute<NoValues>(.post, "/profiles/import", role: .admin)
        static let show = SiteRoute<RecordID<ProfileRecord>>(.get, "/profiles/{id}", role: .viewer)
        static let saveDetails = SiteRoute<RecordID<ProfileRecord>>(.post, "/profiles/{id}/details", role: .admin)
        static let remove = SiteRoute<RecordID<ProfileRecord>>(.post, "/profiles/{id}/delete", role: .admin)
        static let clone = SiteRoute<RecordID<ProfileRecord>>(.post, "/profiles/{id}/clone", role: .admin)
        static let history = SiteRoute<RecordID<ProfileRecord>>(.get, "/profiles/{id}/history", role: .viewer)
        static let version = SiteRoute<ProfileVersion>(.get, "/profiles/{id}/versions/{number}", role: .viewer)
        static let restore = SiteRoute<ProfileVersion>(.post, "/profiles/{id}/versions/{number}/restore", role: .admin)
        /// A version as a `.mobileconfig` download (`?signed=true`: CMS-signed).
        static let export = SiteRoute<ProfileVersion>(.get, "/profiles/{id}/versions/{number}/mobileconfig", role: .viewer)
        static let payloadForm = SiteRoute<ProfilePayload>(.get, "/profiles/{id}/payloads/{kind}", role: .admin)
        static let savePayload = SiteRoute<ProfilePayload>(.post, "/profiles/{id}/payloads/{kind}", role: .admin)
        static let removePayload = SiteRoute<ProfilePayload>(.post, "/profiles/{id}/payloads/{kind}/remove", role: .admin)
        static let assign = SiteRoute<RecordID<ProfileRecord>>(.post, "/profiles/{id}/assignments", role: .admin)
        /// What an assignment would do, before it is made (the group comes as `groupID`).
        static let assignmentPreview = SiteRoute<RecordID<ProfileRecord>>(.get, "/profiles/{id}/assignments/preview", role: .admin)
        /// What removing an assignment would do, asked before it is done.
        static let unassignPreview = SiteRoute<ProfileAssignment>(.get, "/profiles/{id}/assignments/{group}/remove", role: .admin)
        static let unassign = SiteRoute<ProfileAssignment>(.post, "/profiles/{id}/assignments/{group}/remove", role: .admin)

        static func export(_ profile: RecordID<ProfileRecord>, _ number: Int, signed: Bool) -> String {
            export.link(profile, number) + (signed ? "?signed=true" : "")
        }
    }

    /// The signing identity that signs exported profiles.
    enum Signing {
        static let page = SiteRoute<NoValues>(.get, "/signing", role: .admin)
        static let upload = SiteRoute<NoValues>(.post, "/signing", role: .admin)
    }

    /// A stored image (a branding logo), by its key.
    static let image = SiteRoute<String>(.get, "/images/{key}", role: .viewer)
}
