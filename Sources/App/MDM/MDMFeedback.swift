import Domain

/// The feedback an MDM client reports for ManagedApplicationFeedback, read by the same rules
/// as a device's reply on the device API (`CommandReplyBody.feedback`), so both fill the same
/// history and charts with the same bounds.
enum MDMFeedback {
    /// Each app's feedback; nil when the answer carries none. A feedback the console cannot
    /// keep is a reason in words: the command is still done, its feedback is not kept.
    static func read(_ answer: PropertyList) -> Result<[String: [String: JSONValue]]?, Refusal> {
        guard let value = answer["ManagedApplicationFeedback"] else { return .success(nil) }
        guard case .array(let entries) = value else { return .failure(Refusal(reason: "ManagedApplicationFeedback is not an array")) }
        var items: [CommandReplyBody.FeedbackItem] = []
        for entry in entries {
            guard case .string(let identifier)? = entry["Identifier"] else {
                return .failure(Refusal(reason: "an item of ManagedApplicationFeedback has no Identifier"))
            }
            var feedback: [String: JSONValue]?
            if let dictionary = entry["Feedback"] {
                guard case .object(let object) = JSONValue(dictionary) else {
                    return .failure(Refusal(reason: "the Feedback of \(identifier.prefix(80)) is not a dictionary"))
                }
                feedback = object
            }
            items.append(CommandReplyBody.FeedbackItem(Identifier: identifier, Feedback: feedback))
        }
        do {
            return .success(try CommandReplyBody(Status: "Acknowledged", ErrorChain: nil, ManagedApplicationFeedback: items).feedback())
        } catch let error as APIError {
            return .failure(Refusal(reason: error.message))
        } catch {
            return .failure(Refusal(reason: "\(error)"))
        }
    }

    struct Refusal: Error, Equatable {
        let reason: String
    }
}
