import LTI
import Testing

@Suite struct RoleTests {
  @Test func shortFormsAndURNsAreTheSameRoles() {
    let short = LTIRole("Instructor"), urn = LTIRole("urn:lti:role:ims/lis/Instructor")
    #expect(short.scope == .context && urn.scope == .context)
    #expect(short.name == "Instructor" && urn.name == "Instructor")
    #expect(short.urn == "urn:lti:role:ims/lis/Instructor")
  }

  @Test func scopesAndSubRolesAreRead() {
    let assistant = LTIRole("urn:lti:role:ims/lis/TeachingAssistant/Grader")
    #expect(assistant.name == "TeachingAssistant" && assistant.subRole == "Grader" && assistant.scope == .context)
    #expect(LTIRole("urn:lti:instrole:ims/lis/Faculty").scope == .institution)
    #expect(LTIRole("urn:lti:sysrole:ims/lis/SysAdmin").scope == .system)
    let v2 = LTIRole("http://purl.imsglobal.org/vocab/lis/v2/membership#Learner")
    #expect(v2.name == "Learner" && v2.scope == .context)
  }

  @Test func questionsAnswerForEverySpelling() {
    #expect(LTIRole.list("Instructor,urn:lti:instrole:ims/lis/Administrator").isInstructor)
    #expect(LTIRole.list("urn:lti:instrole:ims/lis/Faculty").isInstructor)
    #expect(LTIRole.list("urn:lti:role:ims/lis/Learner").isLearner)
    #expect(LTIRole.list("urn:lti:instrole:ims/lis/Student").isLearner)
    #expect(!LTIRole.list("Learner").isInstructor)
    #expect(LTIRole.list("urn:lti:sysrole:ims/lis/SysAdmin").isAdministrator)
    #expect(LTIRole.list("urn:lti:role:ims/lis/TeachingAssistant").isTeachingAssistant)
    #expect(LTIRole.list("Mentor").isMentor && LTIRole.list("ContentDeveloper").isContentDeveloper)
    #expect(LTIRole.list(" , ,").isEmpty)
  }
}
