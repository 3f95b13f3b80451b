import { canonicalIndustry, canonicalSkill } from '../../src/reference/taxonomy';
import { parseCriteria } from '../../src/domain/criteria';
import { gazetteer } from '../../src/reference/gazetteer';
import { INDUSTRY_SYNONYMS, SKILL_SYNONYMS, extractCriteria, type Extraction } from '../../src/briefs/reader';

const BACKEND_SF = `Senior Backend Engineer (San Francisco, CA)

Acme Pay is a fast-growing fintech company building payment infrastructure for small businesses.
We are hiring a Senior Backend Engineer to join our platform team in our SF office (hybrid, 3 days a week).

What you'll do
- Design, build and operate services in TypeScript on Node.js
- Run our workloads on Kubernetes and AWS
- Go above and beyond for our merchants

What we're looking for
- 5+ years of experience building backend systems
- Strong TypeScript/Kubernetes skills; PostgreSQL a plus
- Experience with Go (Golang) is nice to have`;

const NURSE_CHICAGO = `Registered Nurse - Medical/Surgical Unit
Location: Chicago, IL

Northside Memorial is a 400-bed teaching hospital on Chicago's North Side. We are looking for a compassionate Registered Nurse to join our Med/Surg team on night shift.

Requirements:
- Active Illinois RN license
- At least 2 years of acute care nursing experience
- BLS and ACLS certification
- Experience with Epic EHR, medication administration and patient education`;

const AE_LONDON = `Account Executive - London

We're a Series B fintech helping mid-market companies automate their finance operations. Our London team is growing and we're hiring an Account Executive to own the full sales cycle for new business in the UK.

You bring:
- 3+ years of B2B SaaS sales experience, ideally selling to CFOs and finance teams
- A track record of closing deals and managing your own pipeline in Salesforce
- Excellent negotiation and prospecting skills
- C-suite presence`;

const DS_BERLIN = `Data Scientist (Remote, based in Berlin)

We are a climate analytics scale-up. You will work remotely with our team in Berlin, building forecasting models for energy demand.

You have:
- Five years of experience as a data scientist or in a similar role
- Excellent Python and SQL, experience with pandas and scikit-learn
- Solid statistics and time series analysis; R is a plus
- Our R&D group works closely with product`;

const DESIGNER_NO_LOCATION = `Product Designer

We're looking for a Product Designer to shape the experience of our B2B analytics platform. You will own features end to end, from user research to polished UI.

Requirements:
- 4 years of experience in product design
- Fluency in Figma, prototyping and design systems
- Comfortable running usability testing with customers`;

const DATA_ENGINEER_RANGE = `Data Engineer - New York City

Join the data platform team of a large investment bank in NYC. You will build batch and streaming pipelines.

Requirements:
- 3-5 years of experience as a Data Engineer
- Python, SQL and Apache Spark
- Experience with Airflow, Kafka and Snowflake`;

function expectValid(extraction: Extraction): void {
  const parsed = parseCriteria(extraction.criteria);
  if (!parsed.ok) throw new Error(`extracted criteria failed validation: ${JSON.stringify(parsed.problems)}`);
  expect(Object.keys(extraction.confidence).sort()).toEqual(Object.keys(extraction.criteria).sort());
  for (const c of Object.values(extraction.confidence)) {
    expect(c).toBeGreaterThan(0);
    expect(c).toBeLessThanOrEqual(1);
  }
}

describe('extractCriteria on realistic job descriptions', () => {
  it('backend engineer in SF, 5+ years, TypeScript/Kubernetes', () => {
    const e = extractCriteria(BACKEND_SF);
    expect(e.criteria).toEqual({
      family: 'software_engineering',
      occupations: ['15-1252.00'],
      titles: ['Backend Engineer'],
      metro: 'san-francisco-bay-area',
      industries: ['Financial Services'],
      years_experience: { min: 5 },
      skills: ['TypeScript', 'Node.js', 'Kubernetes', 'AWS', 'PostgreSQL', 'Go'],
      seniority: ['senior'],
    });
    expect(e.confidence).toEqual({
      family: 0.9,
      occupations: 0.9,
      titles: 0.9,
      metro: 0.9,
      industries: 0.75,
      years_experience: 0.9,
      skills: 0.9,
      seniority: 0.85,
    });
    expectValid(e);
  });

  it('registered nurse in Chicago', () => {
    const e = extractCriteria(NURSE_CHICAGO);
    expect(e.criteria).toEqual({
      family: 'healthcare_nursing',
      occupations: ['29-1141.00'],
      titles: ['Registered Nurse'],
      metro: 'chicago',
      industries: ['Hospital & Health Care'],
      years_experience: { min: 2 },
      // A floor of years and no level word: the level those years start.
      seniority: ['mid'],
      skills: [
        'Basic Life Support',
        'Advanced Cardiac Life Support',
        'Epic Systems',
        'Electronic Medical Records',
        'Medication Administration',
        'Patient Education',
      ],
    });
    expect(e.confidence.metro).toBe(0.9);
    expectValid(e);
  });

  it('account executive in London fintech', () => {
    const e = extractCriteria(AE_LONDON);
    expect(e.criteria).toEqual({
      family: 'sales',
      occupations: ['41-3091.00'],
      titles: ['Account Executive'],
      metro: 'london',
      industries: ['Financial Services'],
      years_experience: { min: 3 },
      // A floor of years and no level word: the level those years start.
      seniority: ['mid'],
      skills: ['SaaS Sales', 'Salesforce', 'Negotiation', 'Prospecting'],
    });
    expectValid(e);
  });

  it('remote data scientist in Berlin with Python/SQL (R as a language, not R&D)', () => {
    const e = extractCriteria(DS_BERLIN);
    expect(e.criteria).toEqual({
      family: 'data_science',
      occupations: ['15-2051.00'],
      titles: ['Data Scientist'],
      metro: 'berlin',
      industries: ['Renewables & Environment'],
      years_experience: { min: 5 },
      // A floor of years and no level word: the level those years start.
      seniority: ['senior'],
      skills: ['Forecasting', 'Python', 'SQL', 'pandas', 'scikit-learn', 'Statistics', 'Time Series Analysis', 'R'],
    });
    // A remote role names its place less firmly.
    expect(e.confidence.metro).toBe(0.75);
    expectValid(e);
  });

  it('a job description without a location leaves metro out', () => {
    const e = extractCriteria(DESIGNER_NO_LOCATION);
    expect(e.criteria).toEqual({
      family: 'design',
      occupations: ['15-1255.00'],
      titles: ['Product Designer'],
      years_experience: { min: 4 },
      // A floor of years and no level word: the level those years start.
      seniority: ['mid'],
      skills: ['User Research', 'Product Design', 'Figma', 'Prototyping', 'Design Systems', 'Usability Testing'],
    });
    expect(e.confidence.metro).toBeUndefined();
    expectValid(e);
  });

  it('a "3-5 years" range gives min and max', () => {
    const e = extractCriteria(DATA_ENGINEER_RANGE);
    expect(e.criteria).toEqual({
      family: 'data_engineering',
      occupations: ['15-1243.00'],
      titles: ['Data Engineer'],
      metro: 'new-york-city',
      industries: ['Investment Banking'],
      years_experience: { min: 3, max: 5 },
      skills: ['Python', 'SQL', 'Apache Spark', 'Apache Airflow', 'Apache Kafka', 'Snowflake'],
      // A range of years with no level word implies the levels whose usual years hold its middle.
      seniority: ['mid'],
    });
    expectValid(e);
  });
});

describe('extractCriteria details', () => {
  const years = (text: string) => extractCriteria(text).criteria.years_experience;

  it('reads the usual ways of stating years', () => {
    expect(years('You have at least 3 years in a similar role.')).toEqual({ min: 3 });
    expect(years('Minimum of 7 years of professional experience.')).toEqual({ min: 7 });
    expect(years('Requires 2–4 yrs of experience.')).toEqual({ min: 2, max: 4 });
    expect(years('Requires 6 to 8 years of relevant experience.')).toEqual({ min: 6, max: 8 });
    expect(years('Five (5) years of experience with payroll.')).toEqual({ min: 5 });
    expect(years('ten years of experience in sales')).toEqual({ min: 10 });
    expect(years('8 or more years working with customers')).toEqual({ min: 8 });
    // The first stated requirement wins.
    expect(years('5+ years of backend experience, including 2+ years with Kubernetes')).toEqual({ min: 5 });
    // A law firm's class year: a 3rd-year associate is two to three years in.
    expect(years('Cleveland, OH — 3rd-year litigation associate, commercial disputes')).toEqual({ min: 2, max: 3 });
    expect(years('litigation associate, 3rd year, Chicago')).toEqual({ min: 2, max: 3 });
  });

  it('does not read unrelated numbers as years of experience', () => {
    expect(years('We were founded 10 years ago and serve 3 years of backlog.')).toBeUndefined();
    expect(years('Worked there 2019-2023 on payments.')).toBeUndefined();
    expect(years('A 401k and 25 days of holiday.')).toBeUndefined();
    expect(years('Up to 3 years of experience; new grads welcome.')).toBeUndefined();
    expect(years('3rd year student placement, 12 months')).toBeUndefined();
  });

  it('needs context for short or ambiguous skill names', () => {
    const skills = (text: string) => extractCriteria(text).criteria.skills ?? [];
    expect(skills('Go above and beyond. Go to our careers page.')).not.toContain('Go');
    expect(skills('Backend services in Golang.')).toEqual(['Go']);
    expect(skills('We use Python, Go and Rust.')).toEqual(['Python', 'Go', 'Rust']);
    expect(skills('You will go to meetings.')).toEqual([]);
    expect(skills('Work with the C-suite and our R&D team on our go-to-market.')).toEqual([]);
    expect(skills('Statistics in R or Python.')).toEqual(['Statistics', 'R', 'Python']);
    expect(skills('We react quickly and sketch ideas; the agile way.')).toEqual([]);
    expect(skills('Frontend in React with SAFe ceremonies.')).toEqual(['React', 'SAFe']);
  });

  it('reads seniority from the words around a title, apart from the title itself', () => {
    const a = extractCriteria('Staff Software Engineer. 8+ years of experience in Java.');
    expect(a.criteria.titles).toEqual(['Software Engineer']);
    expect(a.criteria.seniority).toEqual(['lead']);
    // Two levels asked for: both.
    const b = extractCriteria('Hiring a Junior Data Analyst and a Senior Data Analyst for our team.');
    expect(b.criteria.titles).toEqual(['Data Analyst']);
    expect(b.criteria.seniority).toEqual(['junior', 'senior']);
    const c = extractCriteria('Entry-level role: Data Analyst working with SQL and Tableau.');
    expect(c.criteria.seniority).toEqual(['junior']);
    // "Fresher" is a new graduate in Indian English: a level when it qualifies the title ("freshers may apply" only allows them).
    expect(extractCriteria('Fresher Java developer - Chennai').criteria.seniority).toEqual(['junior']);
    expect(extractCriteria('Java developer, 2-4 yrs, freshers may apply - Chennai').criteria.seniority).not.toContain('junior');
    // "to lead … hiring" is a verb, the person mentored a colleague; "II" after a title is a level.
    const d = extractCriteria('You will lead Backend Engineer hiring and mentor a Software Engineer II.');
    expect(d.criteria.titles).toEqual(['Backend Engineer']);
    expect(d.criteria.seniority).toBeUndefined();
    expect(extractCriteria('Software Engineer II wanted for our payments team').criteria.seniority).toEqual(['mid']);
    expect(extractCriteria('QA lead in Warsaw, Selenium and Cypress.').criteria.seniority).toEqual(['lead']);
    expect(extractCriteria('Graphic Designer, junior, Miami, social and print work.').criteria.seniority).toEqual(['junior']);
    expect(extractCriteria('Head of Engineering / VP Eng for our Sydney office, 40 engineers.').criteria).toMatchObject({
      family: 'software_engineering',
      seniority: ['director', 'vp'],
    });
    expect(extractCriteria('level wise: mid to senior. A growth marketer for a consumer app in LA.').criteria.seniority).toEqual(['mid', 'senior']);
    // "Mid-Market" is a segment, not a level.
    expect(extractCriteria('Customer Success Manager — Mid-Market accounts, Sydney office').criteria.seniority).toBeUndefined();
    // Levels as recruiters write them in some markets: UK "midweight" and "NQ", Latin American "Ssr" after the title.
    expect(extractCriteria('Midweight graphic designer for retail campaigns, London').criteria.seniority).toEqual(['mid']);
    expect(extractCriteria('NQ solicitor for the disputes team, Dublin').criteria.seniority).toEqual(['junior']);
    expect(extractCriteria('data analyst Ssr — SQL, Looker — CABA, híbrido').criteria.seniority).toEqual(['mid']);
    // A second role wanted later lends the first no level.
    expect(extractCriteria("ops coordinator - dispatch, vendor invoices - we'll also want an ops manager above this person eventually").criteria).toMatchObject(
      {
        titles: ['Operations Coordinator'],
      },
    );
    expect(
      extractCriteria("ops coordinator - dispatch, vendor invoices - we'll also want an ops manager above this person eventually").criteria.seniority,
    ).toBeUndefined();
  });

  it("reads a department's manager by the family's level title, however the department is written", () => {
    const read = (brief: string) => extractCriteria(brief).criteria;
    // An abbreviation stands for its long name: SRE, EE; a department written short: "corp dev".
    expect(read('SRE manager, Hyderabad')).toMatchObject({ titles: ['Site Reliability Engineering Manager'], seniority: ['manager'] });
    expect(read('EE manager, automotive electronics, Yokohama')).toMatchObject({ titles: ['Electrical Engineering Manager'], seniority: ['manager'] });
    expect(read('corp dev associate, M&A, buy side, Manhattan')).toMatchObject({ family: 'finance', titles: ['Corporate Development Analyst'] });
    // The level heading a department holds the abbreviation inside it.
    expect(read('manager for our SRE team (6 engineers), HITEC City')).toMatchObject({ family: 'devops_sre', seniority: ['manager'] });
    expect(read('Director of SRE, Berlin')).toMatchObject({ family: 'devops_sre', seniority: ['director'] });
    expect(read('Dir. of CS — 9 CSMs under you, Gainsight — KC')).toMatchObject({ family: 'customer_success', seniority: ['director'] });
    expect(read('Head of Product Design, Berlin')).toMatchObject({ family: 'design', titles: ['Director of Design'] });
    // No department word shared: the family's own level title (its people at that level hold it).
    expect(read('Controller, Orlando FL')).toMatchObject({ family: 'accounting', titles: ['Accounting Manager'] });
    expect(read('CNO for a 300-bed community hospital, Clearwater FL')).toMatchObject({ titles: ['Chief Nursing Officer'], seniority: ['cxo'] });
    expect(read('GRC manager — ISO 27001, SOC 2, vendor risk — Bethesda MD')).toMatchObject({ family: 'security', titles: ['Security Manager'] });
    // The first role named outright leads; a head count of staff and a certification on the list are no roles.
    expect(read('COO for a home-services company (1,200 field techs), Lean Six Sigma Black Belt, P&L ownership, 15+ yrs — Montréal')).toMatchObject({
      family: 'operations',
      seniority: ['cxo'],
    });
    // Someone else's role is still not the one asked for.
    expect(read('We need an account manager for our sales team in Austin')).toMatchObject({ titles: ['Account Manager'] });
    expect(read('We need an account manager for our sales team in Austin').seniority).toBeUndefined();
  });

  it('prefers the first metro mentioned and matches aliases only as written', () => {
    expect(extractCriteria('Backend Engineer in NYC, with trips to Boston.').criteria.metro).toBe('new-york-city');
    expect(extractCriteria('Backend Engineer in Boston, with trips to NYC.').criteria.metro).toBe('boston');
    expect(extractCriteria('Backend Engineer; a sf office is not a name.').criteria.metro).toBeUndefined();
  });

  it('returns empty criteria for text with nothing recognisable', () => {
    expect(extractCriteria('We are a friendly team that likes lunch and long walks on the beach.')).toEqual({ criteria: {}, confidence: {} });
    expect(extractCriteria('')).toEqual({ criteria: {}, confidence: {} });
  });

  it("keeps the chosen family's titles, at most 5, strongest first", () => {
    const text =
      'Backend Engineer, Frontend Engineer, Mobile Engineer, Web Developer, Full Stack Engineer and Software Developer roles; also a Data Scientist.';
    const e = extractCriteria(text);
    expect(e.criteria.family).toBe('software_engineering');
    expect(e.criteria.titles).toEqual(['Backend Engineer', 'Frontend Engineer', 'Mobile Engineer', 'Web Developer', 'Full Stack Engineer']);
  });

  it('reads the words recruiters use: abbreviations, other titles, plurals', () => {
    const read = (text: string) => extractCriteria(text).criteria;
    expect(read('Senior PM for our payments team in London')).toMatchObject({
      family: 'product_management',
      titles: ['Product Manager'],
      metro: 'london',
      seniority: ['senior'],
    });
    expect(read('Need 2 SDRs for the Austin office as soon as possible')).toMatchObject({
      family: 'sales',
      titles: ['Sales Development Representative'],
      metro: 'austin',
    });
    expect(read('An iOS developer in Toronto who knows Swift and SwiftUI')).toMatchObject({ family: 'software_engineering', titles: ['Mobile Engineer'] });
    expect(read('server-side developer, Go and PostgreSQL, Berlin based')).toMatchObject({ family: 'software_engineering', titles: ['Backend Engineer'] });
    expect(read('ML engineer for recommendations, remote within Germany')).toMatchObject({
      family: 'data_science',
      titles: ['Machine Learning Engineer'],
      places: [{ id: gazetteer().country('Germany')!.id }],
    });
    expect(read('people ops generalist for a 200-person company in Denver')).toMatchObject({ family: 'hr_people' });
    expect(read('RevOps analyst to own Salesforce reporting, Chicago')).toMatchObject({ family: 'operations', titles: ['Revenue Operations Analyst'] });
    expect(read('hardware design engineer for motor controllers, Munich')).toMatchObject({ family: 'electrical_engineering' });
    expect(read('in-house counsel for a scale-up in Paris, contracts and GDPR')).toMatchObject({ family: 'legal', metro: 'paris' });
    expect(read('Two RNs for the ICU night shift at our Houston hospital')).toMatchObject({ family: 'healthcare_nursing', metro: 'houston' });
    expect(read('CPA with audit background for a Boston firm')).toMatchObject({ family: 'accounting' });
    expect(read('HRBP to support our engineering org in Dublin')).toMatchObject({ family: 'hr_people', titles: ['HR Business Partner'] });
    expect(read('TPM for the cloud infrastructure programme in Seattle')).toMatchObject({
      family: 'project_management',
      titles: ['Technical Program Manager'],
    });
    expect(read('TPgM for silicon bring-up, Austin')).toMatchObject({ family: 'project_management', titles: ['Technical Program Manager'] });
    // An abbreviation only O*NET lists reads as the family's title it is the initials of.
    expect(read('BA needed for a core-banking migration, client site in Thane')).toMatchObject({ family: 'operations', titles: ['Business Analyst'] });
  });

  it('reads misspelt role and place words', () => {
    expect(extractCriteria('sr backend enginer in berlin, golang').criteria).toMatchObject({
      family: 'software_engineering',
      titles: ['Backend Engineer'],
      metro: 'berlin',
      seniority: ['senior'],
    });
    expect(extractCriteria('prodcut manager with B2B SaaS background, anywhere').criteria).toMatchObject({ family: 'product_management' });
    expect(extractCriteria('mechnical design engineer, creo + GD&T, Charlote NC').criteria).toMatchObject({
      family: 'mechanical_engineering',
      metro: 'charlotte',
    });
    // Corrections say so: less sure than a word written right.
    const typo = extractCriteria('data scienist for our NYC team, python and ML');
    expect(typo.criteria.family).toBe('data_science');
    expect(typo.confidence.family).toBeLessThan(0.9);
  });

  it('reads the role asked for, not the colleagues, customers or people ruled out', () => {
    expect(extractCriteria('Backend Engineer — you will work closely with product managers and designers in Chicago').criteria.family).toBe(
      'software_engineering',
    );
    expect(extractCriteria('our CFO wants an FP&A analyst, not another accountant. Chicago Loop, hybrid').criteria).toMatchObject({
      family: 'finance',
      titles: ['FP&A Analyst'],
    });
    expect(extractCriteria("recruiter for our travel-nurse staffing desk (we place RNs, we don't need one), San Antonio").criteria.family).toBe('recruiting');
    expect(extractCriteria('PMM for developer tools — remote, but SF-based').criteria.family).toBe('marketing');
    // The one who asks, and the boss, lend the role no level.
    expect(extractCriteria('plant manager asked me to find a reliability engineer — vibration analysis, RCM — Houston').criteria).toMatchObject({
      family: 'mechanical_engineering',
      titles: ['Reliability Engineer'],
    });
    expect(extractCriteria('plant manager asked me to find a reliability engineer — vibration analysis, RCM — Houston').criteria.seniority).toBeUndefined();
    expect(extractCriteria("bizops analyst who'd report straight into the COO — pricing + unit economics, Chicago").criteria.seniority).toBeUndefined();
  });

  it('takes skills as evidence when no role is named', () => {
    // The title the skills point to first, then the family's headline title (the skills' title is a guess).
    expect(extractCriteria('someone who does schematic capture and board layout in Altium, near Munich').criteria).toMatchObject({
      family: 'electrical_engineering',
      titles: ['PCB Design Engineer', 'Electrical Engineer'],
      metro: 'munich',
    });
    expect(extractCriteria('Someone to build and run our ingestion layer: Debezium CDC into BigQuery, Airflow DAGs. Warsaw').criteria.titles).toEqual([
      'Data Warehouse Engineer',
      'Data Engineer',
    ]);
    // A trade's everyday tools stand for its skills.
    expect(extractCriteria('Looking for someone to run our email + SMS program in Klaviyo: flows, segmentation').criteria.family).toBe('marketing');
    expect(extractCriteria('need someone to actually run vuln management: Tenable scans, patch SLAs').criteria.family).toBe('security');
    // Purchase orders a buyer raises are no product owners.
    expect(extractCriteria('negotiate with our packaging suppliers in Asia, run the RFQs, manage POs in SAP').criteria.family).toBe('supply_chain');
    expect(extractCriteria('we need two POs for the platform squads').criteria.family).toBe('product_management');
    // "eng" after a field is an engineer ("a sec eng", "the analytics eng req"); after a head, a department.
    expect(extractCriteria('ok so the CISO wants a cloud sec eng before we hire the pentester').criteria.titles?.[0]).toBe('Cloud Security Engineer');
    expect(extractCriteria('the analytics eng req is open again (the data scientist one is still on hold)').criteria.family).toBe('data_engineering');
    expect(extractCriteria('Head of Mech Eng for an eVTOL startup').criteria.seniority).toEqual(['director']);
    // A role the brief says it does not need is not the one asked for.
    expect(
      extractCriteria(
        'Req from our hardware lead: embedded C developer for the thermostat line, FreeRTOS on STM32 - we do NOT need another electrical engineer',
      ).criteria.family,
    ).toBe('software_engineering');
    // A department's person is the family's headline role; the one who forwards the ask is not.
    expect(extractCriteria('Forwarding from our COO: "need a bizops person to own the weekly metrics review". MTL').criteria).toMatchObject({
      family: 'operations',
      titles: ['Operations Analyst'],
    });
    expect(extractCriteria('need a marketing person for our launch').criteria.titles).toEqual(['Marketing Specialist']);
    // A technology our titles are named after counts as a skill ("Elixir developer", "Informatica
    // developer"); a library named like an abbreviated title is the library ("Ecto" is no CTO).
    expect(extractCriteria('anyone here write Elixir? slow Ecto queries, Oban job queues. Nashville, TN').criteria).toMatchObject({
      family: 'software_engineering',
      titles: ['Backend Engineer', 'Software Engineer'],
    });
    expect(extractCriteria('anyone here write Elixir? slow Ecto queries').criteria.seniority).toBeUndefined();
    expect(extractCriteria('our nightly Informatica workflows keep failing, need someone to own them').criteria.family).toBe('data_engineering');
    expect(extractCriteria('hey, any leads on a rails person? checkout squad lost two people').criteria.family).toBe('software_engineering');
    expect(extractCriteria('the rails on the staircase need fixing').criteria.family).toBeUndefined();
    // A tool named like an occupation is the tool ("Postman/Newman" are no mail carrier or sailor).
    expect(extractCriteria('Playwright + TypeScript for the web app - API tests in Postman/Newman - remote, India').criteria).toMatchObject({
      family: 'qa_testing',
      skills: expect.arrayContaining(['Postman']),
    });
    // Duties written the way recruiters write them stand for a family's skills.
    expect(extractCriteria('threat-model new features with the product teams and run the bug bounty, remote').criteria).toMatchObject({
      family: 'security',
      skills: expect.arrayContaining(['Threat Modeling', 'Vulnerability Management']),
    });
    expect(extractCriteria('plan and run the diary studies and usability rounds for our banking app').criteria.family).toBe('design');
    expect(extractCriteria('review and redline our customer contracts, Leeds').criteria.family).toBe('legal');
    expect(extractCriteria('protection relay settings, substation one-lines and arc flash studies, remote').criteria.family).toBe('electrical_engineering');
    // A chat's lower-case abbreviation after a hiring word is the role; a tool's suites are the tool's.
    expect(extractCriteria('hiring a pmm for our security product, NYC launch + messaging').criteria.family).toBe('marketing');
    expect(extractCriteria('turn our manual regression sheet into Playwright suites, Kraków').criteria.family).toBe('qa_testing');
    // "mfg" is short for manufacturing, as "mgr" is for manager.
    expect(extractCriteria('mfg engineer for our battery pack line, Sunnyvale').criteria).toMatchObject({ family: 'mechanical_engineering' });
    // One common skill says too little.
    expect(extractCriteria('someone good with Excel for our Dallas office, full time').criteria.family).toBeUndefined();
  });

  it('reads a whole country for a remote role, and metro alternatives', () => {
    expect(extractCriteria('Revenue Operations Analyst — remote (Canada). We have an office in Toronto you may use.').criteria).toMatchObject({
      places: [{ id: gazetteer().country('Canada')!.id }],
    });
    expect(extractCriteria('Data Engineer in London or Berlin, Spark and Airflow').criteria).toMatchObject({ metro: 'london', locations: ['berlin'] });
    expect(extractCriteria('Backend Engineer; HQ in Boston, this role is based in Denver.').criteria.metro).toBe('denver');
  });

  it('maps synonyms only onto reference names', () => {
    for (const target of Object.values(INDUSTRY_SYNONYMS)) expect(canonicalIndustry(target)).toBe(target);
    for (const s of SKILL_SYNONYMS) expect(canonicalSkill(s.skill)).toBe(s.skill);
  });
});
