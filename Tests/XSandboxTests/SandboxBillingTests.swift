import Testing
import XAPI

@testable import XSandbox

/// The sandbox's model of X's billing (from X's pricing and post-cap pages): deduplication per
/// UTC day, owned reads, a balance that may go slightly negative and then refuses, the post cap.
@Suite("Sandbox billing")
struct SandboxBillingTests {
  @Test func eachResourceOncePerUTCDay() {
    var billing = SandboxBilling(credits: USD("1.00")!, postCap: nil)
    #expect(billing.charge(ids: ["1", "2"], kind: .post, owned: false, day: "2026-11-26") == USD("0.01"))
    // The same posts again the same day, even as owned reads: free. The next day: charged again.
    #expect(billing.charge(ids: ["1", "2", "3"], kind: .post, owned: true, day: "2026-11-26") == USD("0.001"))
    #expect(billing.charge(ids: ["1"], kind: .post, owned: false, day: "2026-11-27") == USD("0.005"))
    #expect(billing.charge(ids: ["1"], kind: .user, owned: false, day: "2026-11-27") == USD("0.01"))
    #expect(billing.charge(request: .postCreateWithURL) == USD("0.20"))
    #expect(billing.spent == USD("0.226") && billing.balance == USD("0.774"))
    #expect(billing.postsPerDay == ["2026-11-26": 3, "2026-11-27": 1])
  }

  @Test func anEmptyBalanceRefusesWithX402() {
    var billing = SandboxBilling(credits: USD("0.01")!, postCap: nil)
    #expect(billing.refusal(readsPosts: true) == nil)
    // The answer that empties the balance is served whole, past zero, as X's may go slightly negative.
    billing.charge(ids: (1...100).map(String.init), kind: .post, owned: false, day: "2026-11-26")
    #expect(billing.balance == USD("0.01")! - USD("0.50")!)
    #expect(billing.refusal(readsPosts: false) == .creditsDepleted && SandboxBilling.Refusal.creditsDepleted.status == 402)
    billing.add(credits: USD("1")!)
    #expect(billing.refusal(readsPosts: true) == nil)
  }

  @Test func thePostCapRefusesPostReadsOnly() {
    var billing = SandboxBilling(credits: nil, postCap: 3)
    #expect(billing.isMetered)
    billing.charge(ids: ["1", "2", "3"], kind: .post, owned: false, day: "2026-11-26")
    #expect(billing.refusal(readsPosts: true) == .usageCapped && SandboxBilling.Refusal.usageCapped.status == 429)
    #expect(billing.refusal(readsPosts: false) == nil)
    #expect(SandboxBilling.Refusal.usageCapped.body.contains("usage-capped"))
  }

  @Test func freeByDefault() {
    var billing = SandboxBilling(credits: nil, postCap: nil)
    #expect(!billing.isMetered && billing.refusal(readsPosts: true) == nil)
    billing.charge(ids: ["1"], kind: .post, owned: false, day: "2026-11-26")
    #expect(billing.balance == nil)
  }
}
