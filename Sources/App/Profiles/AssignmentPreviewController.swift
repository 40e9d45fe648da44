import Domain
import Foundation
import Hummingbird
import Storage

/// The confirmation before an assignment or unassignment takes effect: what it will do to the
/// devices it reaches (who locks or unlocks into which app, new conflicts, settings that
/// change), worked out with the effective-policy rules, and the button that makes it happen.
/// The change itself is the existing POST; this page is where the profile page's buttons go.
struct AssignmentPreviewController {
    let profiles: ProfileReader
    let cookies: CookieJar
    let renderer: PageRenderer
    let profilePage: ProfilesController

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Profiles.assignmentPreview) { id, request, context in
            guard let groupID = request.uri.formParameters["groupID"].flatMap({ RecordID<DeviceGroupRecord>(String($0)) }) else {
                return try await profilePage.show(id, request: request, context: context, number: nil,
                                                                              assignError: "Choose a group to assign the profile to.",
                                                                              status: .unprocessableContent)
            }
            let preview: ImpactPreview.Result
            do {
                preview = try await profiles.impact(of: .assign(id, to: groupID))
            } catch let refusal as CatalogRefusal {
                return try await profilePage.show(id, request: request, context: context, number: nil,
                                                                              assignError: refusal.firstField.message, status: .unprocessableContent)
            }
            let group = preview.group!.name
            if preview.isAssigned {
                return .seeOther(Site.Profiles.show.link(id), flash: .notice("\(preview.profile.name) is already assigned to \(group)."),
                                 cookies: cookies, request: request)
            }
            return try ImpactPage.render(preview, question: "Assign \(preview.profile.name) to \(group)?", confirmPath: Site.Profiles.assign.link(id),
                                         confirmLabel: "Assign to \(group)", hidden: [.init(name: "groupID", value: groupID.description)],
                                         renderer: renderer, request: request, context: context)
        }
        routes.on(Site.Profiles.unassignPreview) { id, groupID, request, context in
            let preview = try await profiles.impact(of: .unassign(id, from: groupID))
            let group = preview.group!.name
            guard preview.isAssigned else {
                return .seeOther(Site.Profiles.show.link(id), flash: .notice("\(preview.profile.name) is not assigned to \(group): there is nothing to unassign."),
                                 cookies: cookies, request: request)
            }
            return try ImpactPage.render(preview, question: "Unassign \(preview.profile.name) from \(group)?",
                                         confirmPath: Site.Profiles.unassign.link(id, groupID), confirmLabel: "Unassign from \(group)", hidden: [],
                                         renderer: renderer, request: request, context: context)
        }
    }
}
