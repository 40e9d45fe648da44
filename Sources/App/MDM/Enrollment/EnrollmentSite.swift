import Domain
import HTTPTypes
import Storage

extension Site {
    /// Settings › Enrollment: the push certificate, the device CA, and enrollment links.
    enum Enrollment {
        static let page = SiteRoute<NoValues>(.get, "/enrollment", role: .admin)
        static let uploadPushCertificate = SiteRoute<NoValues>(.post, "/enrollment/push-certificate", role: .admin)
        static let createLink = SiteRoute<NoValues>(.post, "/enrollment/links", role: .admin)
        static let revokeLink = SiteRoute<RecordID<MDMEnrollmentLinkRecord>>(.post, "/enrollment/links/{id}/revoke", role: .admin)
        static let uploadAuthority = SiteRoute<NoValues>(.post, "/enrollment/authority", role: .admin)
    }
}
