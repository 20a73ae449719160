import FlowAWS
import FlowDSL
import FlowEngine
import Foundation

extension DryRunPlan {
    /// The line `--dry-run` shows for `auth: { aws-sigv4: … }`: the service, the region and where
    /// the key comes from (never a key: the signature is made when each request is sent).
    func awsSigV4Line(_ aws: AWSSigV4Auth) -> String {
        let chain = AWSCredentialChain(environment: ProcessInfo.processInfo.environment)
        let profile = aws.profile.map { renderText($0) }
        var source: String
        if aws.accessKeyID != nil {
            source = "access-key-id and secret-access-key (masked)"
        } else {
            do {
                source = try chain.credentials(profile: profile).source
            } catch {
                source = "none found: \(error.description)"
            }
        }
        let found = aws.accessKeyID == nil ? try? chain.credentials(profile: profile) : nil
        let region =
            aws.region.map { renderText($0) } ?? chain.region(profile: profile, found: found)
            ?? "none (give 'region' or set AWS_REGION)"
        let payload = aws.unsignedPayload.map { $0 ? ", payload unsigned" : ", payload signed" } ?? ""
        source = source.replacingOccurrences(of: NSHomeDirectory(), with: "~")
        return "auth aws-sigv4 service \(renderText(aws.service)) region \(region)\(payload); "
            + "key from \(source); signed when sent"
    }
}
