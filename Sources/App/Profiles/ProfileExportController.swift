import Domain
import Foundation
import Hummingbird
import NIOCore
import Signing
import Storage

/// Downloads a profile version as Apple's `.mobileconfig`, plain or signed with CMS. Signed
/// bytes go out exactly as OpenSSL produced them: re-encoding breaks the signature on devices.
struct ProfileExportController {
    let profiles: ProfileReader
    let signing: SigningService

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Profiles.export) { id, number, request, _ in
            let signed = request.uri.formParameters["signed"] == "true"
            let input = try await profiles.export(id, version: number)
            let xml = MobileConfig.xml(for: input)
            let bytes = signed ? try await signing.sign(Array(xml.utf8)) : Array(xml.utf8)
            let filename = Self.filename(identifier: input.identifier, version: number, signed: signed)
            return Response(
                status: .ok,
                headers: [.contentType: "application/x-apple-aspen-config",
                          .contentDisposition: "attachment; filename=\"\(filename)\"",
                          .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }

    /// Letters, digits and hyphens only, so the header needs no quoting rules.
    static func filename(identifier: String, version: Int, signed: Bool) -> String {
        let base = String(identifier.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") ? $0 : "-" })
        return "\(base)-v\(version)\(signed ? "-signed" : "").mobileconfig"
    }
}
