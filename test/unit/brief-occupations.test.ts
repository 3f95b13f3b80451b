import { extractCriteria } from '../../src/briefs/reader';
import { parseCriteria, type Criteria } from '../../src/domain/criteria';
import type { PersonProfile } from '../../src/domain/profile';
import { occupations } from '../../src/reference/occupations';
import { scoreProfile } from '../../src/ranking/scoring';
import { occupationMatch } from '../../src/ranking/signals';

const read = (brief: string) => extractCriteria(brief).criteria;

describe('the brief reader reads any role on O*NET-SOC', () => {
  it('launches roles outside every family with their occupation and no family', () => {
    const cases: [string, string][] = [
      ['Pharmacist for a busy community pharmacy in Boston, MA', '29-1051.00'],
      ['Primary school teacher in Manchester, UK', '25-2021.00'],
      ['Truck driver with a CDL class A license, Dallas area', '53-3032.00'],
      ['Head chef for a 120-cover restaurant in London', '35-1011.00'],
      ['Veterinary nurse for a small animal hospital in Norwich', '29-2056.00'],
      ['Apprentice electrician (1st year), Calgary', '47-2111.00'],
    ];
    for (const [brief, code] of cases) {
      const c = read(brief);
      expect({ brief, family: c.family, first: c.occupations?.[0] }).toEqual({ brief, family: undefined, first: code });
      // Searchable as read: nothing refused.
      expect(parseCriteria(c).ok).toBe(true);
    }
  });

  it('reads roles inside a family with the family and its occupation', () => {
    expect(read('Civil engineer for highway and bridge projects in Denver')).toMatchObject({ occupations: ['17-2051.00'] });
    expect(read('Senior backend engineer in Berlin, Go and Kubernetes')).toMatchObject({
      family: 'software_engineering',
      occupations: ['15-1252.00'],
      titles: ['Backend Engineer'],
      seniority: ['senior'],
    });
    expect(read('LPN, long-term care, Sioux Falls')).toMatchObject({ family: 'healthcare_nursing', occupations: ['29-2061.00'] });
    // A UK care home's registered manager (the one registered with the regulator) runs a health service.
    expect(read('Registered Manager for a 40-bed dementia care home near Scarborough').occupations?.[0]).toBe('11-9111.00');
    // A UK health visitor is a registered nurse (O*NET lists the title only under religious workers).
    expect(read('Health visitor for a 0-19 team in Leeds')).toMatchObject({ family: 'healthcare_nursing', occupations: ['29-1141.00'] });
    // A manager and up of a family is its management occupation first, as the corpus holds them.
    expect(read('Head of Finance – Kendal, Cumbria. Housing association').occupations?.[0]).toBe('11-3031.00');
    expect(read('Logistics Manager, Leeds').occupations?.[0]).toBe('11-3071.00');
    expect(read('Procurement Manager – indirect spend').occupations?.[0]).toBe('11-3061.00');
    expect(read('Senior Financial Analyst').occupations).toEqual(['13-2051.00']);
  });

  it('never takes a word of an occupation outside the families as evidence for one', () => {
    // "Chef" is also a DevOps tool, "nurse" a nursing word, "server" a waiter: the longer title decides.
    expect(read('Head chef for a 120-cover restaurant in London').family).toBeUndefined();
    expect(read('Veterinary nurse, small animals').family).toBeUndefined();
    // Skills alone, in the words designers and data engineers write them; a verb after "can" is no role.
    expect(read('someone who lives in Figma: user flows, wireframes, clickable prototypes, usability sessions').family).toBe('design');
    expect(read('move ~300 nightly SSIS packages to Azure Data Factory, rebuild the star schemas').family).toBe('data_engineering');
    expect(read('need someone who can program Allen-Bradley PLCs in Studio 5000 and build the HMI screens').family).toBe('electrical_engineering');
    // Another family's department before a curated title makes it that department's role.
    expect(read('Cybersecurity risk manager').family).toBe('security');
    expect(read('Information security risk analyst').family).toBe('security');
    expect(read('IT test analyst').family).toBe('qa_testing');
    // A department's words before a title only O*NET knows qualify it.
    expect(read('Mechanical engineering consultant').family).toBe('mechanical_engineering');
    expect(read('HVAC project engineer').family).toBe('mechanical_engineering');
    expect(read('Security officer, night shifts').family).toBeUndefined();
    expect(read('Senior SRE: Linux server administration, Chef and Terraform').family).toBe('devops_sre');
    // An English word spelt right is no near miss of a title: barriers are no barristers, audits no auditors.
    const highways = read('Highways Operative (Grade 4) – Bridgend depot. Pothole and patching gangs, signs and barriers, winter gritting rota');
    expect(highways.family).toBeUndefined();
    expect(highways.occupations?.[0]).toBe('47-4051.00');
    expect(read('Ahrefs + Screaming Frog audits - schema markup, Core Web Vitals, internal linking on a 40k-page site').family).not.toBe('accounting');
    // A skill joined to another skill is the skill, not O*NET's title of the same word (playwrights).
    const tester = read('Playwright + TypeScript for the web app, API tests in Postman');
    expect(tester.skills).toContain('Playwright');
    expect(tester.occupations ?? []).not.toContain('27-3043.00');
    // A department title the family's tables give no title of still names the occupation O*NET lists it under.
    expect(read('Advertising Manager – Free State retail group, head office in Bloemfontein').occupations?.[0]).toBe('11-2011.00');
    // The armed forces' occupations are no reading: nobody in a recruiter's data holds them.
    expect(read('Fishery Officer – Timaru').occupations?.some((c) => c.startsWith('55-'))).toBe(false);
    // …and a department's word opening a brief still names its people.
    expect(read('help with recruiting for our Austin office').family).toBe('recruiting');
  });

  it('launches a role no vocabulary knows by the opening words as written, and refuses only a text that names nobody', () => {
    const zorbing = extractCriteria('Zorbing guide, Leeds');
    expect(zorbing.criteria).toMatchObject({ titles: ['Zorbing guide'] });
    expect(zorbing.criteria.family).toBeUndefined();
    expect(zorbing.confidence.titles).toBeLessThan(0.5);
    expect(parseCriteria(zorbing.criteria).ok).toBe(true);
    // The same words after a field's label or a hiring cue; the label itself names no one.
    expect(read('Job title: Zorbing guide\nLocation: Leeds').titles).toEqual(['Zorbing guide']);
    expect(read("We're hiring an experienced zorbing guide to join our Leeds park").titles).toEqual(['zorbing guide']);
    expect(read('Our Leeds adventure park needs a zorbing guide for the summer').titles).toEqual(['zorbing guide']);
    // A head of anything is someone; a two-letter abbreviation counts in the opening words; a short
    // misspelling is corrected where it completes a known phrase.
    expect(read('Head of English (IGCSE / IB DP) at an international school in Nagoya').titles?.[0]).toBe('Head of English');
    // A brief that asks for someone to do the work, naming no one: the occupation whose titles its words fit.
    expect(read('need someone to tile 3 bathrooms + a few splashbacks a week, Geelong').occupations).toEqual(['47-2044.00']);
    expect(read('We are a company').occupations).toBeUndefined();
    expect(read('Back office MA for a dermatology practice in Scottsdale').occupations?.[0]).toBe('31-9092.00');
    expect(read('Graduate QS for a fit-out contractor, Sharjah').occupations?.[0]).toBe('13-1051.00');
    expect(read('Backend engineer, Boston, MA').occupations).toEqual(['15-1252.00']);
    expect(read('product ownr for a claims platform (insurance), scrum').family).toBe('product_management');
    expect(read('BA needed for a core-banking migration - requirements, process maps, UAT').family).toBe('operations');
    // Nobody named: hiring words and "people" are no role, a stray word is no title's head.
    for (const brief of ['Looking for great people in Toronto, please apply today!', 'Exciting new role, Leeds', 'asdf qwer'])
      expect({ brief, titles: read(brief).titles }).toEqual({ brief, titles: undefined });
  });

  it('reads single-word occupation nouns, abbreviations spelt out, and misspelt department words', () => {
    const read = (brief: string) => extractCriteria(brief).criteria;
    expect(read('Deckhands for harbor tugs, Mobile, AL').occupations?.[0]).toBe('53-5011.00');
    expect(read('stonemason for heritage work, York').occupations?.[0]).toBe('47-2022.00');
    // "management" names an activity, not a person (O*NET lists it as a military title).
    expect(read('Planning officer (development management) for the council in Shrewsbury').occupations?.[0]).toBe('19-3051.00');
    expect(read('Senior motor claims handler, Sunderland').occupations?.[0]).toBe('13-1031.00');
    // British spellings are read as O*NET writes them; UK trade terms.
    expect(read('Consultant paediatrician for a private hospital in Mombasa').occupations?.[0]).toBe('29-1221.00');
    expect(read('Fire alarm engineer (BS 5839), Colchester').occupations?.[0]).toBe('49-2098.00');
    expect(read('Freelance MUAs for bridal bookings across India').titles?.[0]).toBe('MUA');
    // "CRTs (casual relief teachers)" are teachers, not certified respiratory therapists.
    expect(read('CRTs (casual relief teachers) - primary schools, Bunbury').occupations?.[0]).toMatch(/^25-/);
    // A misspelt "-ing" department word is corrected; a verb form is not a role ("trained" is no trainer).
    expect(read('acounting manager, xero, melbourne CBD')).toMatchObject({ family: 'accounting', metro: 'melbourne', seniority: ['manager'] });
    // A misspelt word nearest a word and its plural is the word ("controll" is no controller).
    expect(read('pest controll tech (termite inspections), Gold Coast')).toMatchObject({ occupations: ['37-2021.00'] });
    // A right-spelt word is no misspelling of another ("weed control" is no controller), unless it names a
    // department ("help with recruiting" wants a recruiter); "midwife" is the singular of "Midwives".
    expect(read('help with recruiting, Austin')).toMatchObject({ family: 'recruiting' });
    expect(read('looking for someone to run fertilizer and weed control rounds on residential lawns').occupations?.[0]).toBe('37-3012.00');
    expect(read('Band 6 community midwife, Hereford – continuity of carer team').occupations?.[0]).toBe('29-9099.01');
    // Media is a marketing department: a media director is marketing's.
    expect(read('Media Director for an independent agency, Leeds').family).toBe('marketing');
    // UK and Indian trade titles: goods-in clerks receive, credit controllers collect, a BDE sells.
    expect(read('Goods in clerk – 3PL warehouse in Corby, booking in deliveries').occupations?.[0]).toBe('43-5071.00');
    expect(read('Credit Controller, 30hrs/wk – Sage 200, chasing trade accounts')).toMatchObject({ family: 'accounting', occupations: ['43-3031.00'] });
    expect(read('BDE (field sales) for merchant onboarding – selling POS machines').family).toBe('sales');
    expect(read('Petrol attendants needed at our Rustenburg forecourt, night shift').occupations?.[0]).toBe('53-6031.00');
    expect(read('Patient transport driver (non-emergency PTS), Llanelli').occupations?.[0]).toBe('53-3011.00');
    // A head count and a level's short form keep the opening title as written ("x2", "Sr.").
    expect(read('Trainee Zorbing Guides x2\n- full training given\n- van based in Mullingar').titles).toEqual(['Trainee Zorbing Guides']);
    // …and a recruiter term read in it is that term's title, without the level or the head count.
    expect(read('Trainee Windscreen Technicians x2\n- full training given\n- van based in Mullingar')).toMatchObject({
      titles: ['Windscreen Technician'],
      occupations: ['49-3022.00'],
    });
    expect(read('Required Sr. Executive – Imports, for freight forwarding company at Gandhidham').titles).toEqual(['Sr Executive']);
    // An unknown abbreviation opening the brief is its title as written.
    expect(read('SNA for an ASD class in a primary school in Navan, Co. Meath').titles).toEqual(['SNA']);
    // A job ad in another language names no O*NET title: its title as written is searched, not refused.
    expect(read('Goldschmied/in (m/w/d) für unsere Werkstatt in Pforzheim – Löten, Fassen')).toMatchObject({ titles: ['Goldschmied'] });
    expect(read('Cercasi sarta/sarto con esperienza per riparazioni, laboratorio a Biella').titles).toEqual(['sarta']);
    // A general manager of a hotel or a restaurant is its lodging or food service manager; of a software company, operations'.
    expect(read('General Manager – 142-key Boutique Resort, Chiang Mai')).toMatchObject({ occupations: ['11-9081.00'] });
    expect(read('General Manager – fast-casual restaurant, Cary NC').occupations).toEqual(['11-9051.00']);
    expect(read('General Manager for a B2B SaaS company in Austin')).toMatchObject({ family: 'operations' });
    // A title written as one word that O*NET writes as two.
    expect(read('shotfirer - open cut coal, NSW shotfirer licence, 12hr rotating roster').occupations?.[0]).toBe('47-5032.00');
    // A word ending in "tech" is a technician ("histotech"), unless it is an industry ("biotech").
    expect(read('HTL(ASCP) histotech, 2nd shift – embedding, cutting, IHC. Altoona, PA').occupations?.[0]).toMatch(/^29-201[12]/);
    expect(read('Biotech startup hiring a lab manager in Boston').occupations?.[0]).toBe('11-9121.00');
    // Health-and-safety abbreviations ("HSE", "WHS") are safety titles.
    expect(read('WHS Advisor for a civil contractor, Brisbane').occupations?.[0]).toBe('19-5011.00');
    // A role the brief says it is not hiring is not the one asked for.
    expect(read('VP Finance, SaaS, board reporting; we are not hiring a CFO for this')).toMatchObject({ titles: ['VP of Finance'], seniority: ['vp'] });
  });

  it('keeps the level words and reads abbreviations of O*NET titles', () => {
    expect(read('Lead carpenter for a custom home builder in Bozeman')).toMatchObject({
      occupations: ['47-2031.00'],
      titles: ['Carpenter'],
      seniority: ['lead'],
    });
    expect(read('CNAs for nights, skilled nursing facility in Fargo, not RNs').occupations).toContain('31-1131.00');
    // A title outside the families that states its level, read as the corpus reads people's titles.
    expect(read('Director of Pharmacy for a 300-bed hospital, Louisville KY').seniority).toEqual(['director']);
    expect(read('Store manager, grocery, Knoxville').seniority).toEqual(['manager']);
    expect(read('ML research intern, summer 2027 — vision + LLM evaluation').seniority).toEqual(['intern']);
    // …except that a retail "Associate" is the job, and a trade's journeyman a qualified worker.
    expect(read('Overnight Stock Associate – 10pm to 6:30am – grocery store, Pueblo, CO').seniority).toBeUndefined();
    expect(read('Journeyman Electrician – commercial & light industrial – Rapid City, SD').seniority).toEqual(['mid']);
    // A staff pharmacist is the ordinary grade, not a tech "Staff" (lead) level.
    expect(read('Staff pharmacist – retail pharmacy, Columbus, OH').seniority).toBeUndefined();
    expect(read('Staff Engineer, payments, Berlin').seniority).toEqual(['lead']);
    // Outside the families, the title as written keeps an acronym before it and spells out "tech"; "ARRT(R)" is no R.
    expect(read('HVAC Service Technician — Residential (Tucson, AZ)').titles?.[0]).toBe('HVAC Service Technician');
    expect(read('X-ray tech (ARRT(R) required) for an outpatient imaging center, El Paso')).toMatchObject({ titles: ['X-ray Technician'] });
    expect(read('X-ray tech (ARRT(R) required), El Paso').skills).toBeUndefined();
    expect(read('compliance analyst (AML/KYC), junior level, remote').seniority).toEqual(['junior']);
    // Recruiters' terms O*NET lacks or reads as another occupation; the line's words pick among a title's occupations.
    expect(read('KP needed asap for a busy gastropub, pot wash and prep').occupations?.[0]).toBe('35-9021.00');
    expect(read('SIA door supervisors for bars on the Quayside, Newcastle').occupations?.[0]).toBe('33-9032.00');
    expect(read('Home Care Assistant, Stoke-on-Trent, driver essential').occupations?.[0]).toBe('31-1122.00');
    expect(read('Sparky wanted for domestic rewires').occupations?.[0]).toBe('47-2111.00');
    expect(read('CT technologist – nights, community hospital in Roanoke, VA').occupations?.[0]).toBe('29-2034.00');
    expect(read('Trainee lettings negotiator – independent estate agency in Watford').occupations?.[0]).toBe('41-9022.00');
    expect(read('Head of Catering – trust of 9 schools around Lancaster')).toMatchObject({ occupations: ['11-9051.00'], seniority: ['director'] });
    expect(read('Architect for a residential practice in Bath').occupations?.[0]).toBe('17-1011.00');
    expect(read('Paraprofessional – K-2 reading support (Title I) – Saginaw, MI').occupations?.[0]).toBe('25-9042.00');
    // Opening words close to an O*NET title name the role even beside a telling skill (HVAC is mechanical engineers').
    expect(read('HVAC Install Tech – residential changeouts & new construction – EPA 608 required')).toMatchObject({ occupations: ['49-9021.00'] });
    expect(read('HVAC Install Tech – residential changeouts & new construction – EPA 608 required').family).toBeUndefined();
    expect(read("we're taking on waiting staff for the restaurant and banqueting, Bray")).toMatchObject({ occupations: ['35-3031.00'] });
    expect(read("we're taking on waiting staff for the restaurant and banqueting, Bray").seniority).toBeUndefined();
    expect(read('Pharmacist for a busy community pharmacy in Boston, MA').seniority).toBeUndefined();
    // A level word opening the brief holds for the title a qualifier or two later, but "Senior living" is no level.
    expect(read('Senior motor claims handler, Sunderland office').seniority).toEqual(['senior']);
    expect(read('Lead garage door installer / service tech').seniority).toEqual(['lead']);
    expect(read('Senior living community nurse in Leeds').seniority).toBeUndefined();
    // A misspelt title outside the families is searched as it should be spelt.
    expect(read('Deisel mechanic for a trucking company shop in Fort Wayne')).toMatchObject({ occupations: ['49-3031.00'], titles: ['Diesel Mechanic'] });
    // A recruiter term with several occupations: the brief's words around it choose.
    expect(read('Team members for our burger restaurant in Leeds').occupations?.[0]).toBe('35-3023.00');
    expect(read('Team members for our warehouse in Leeds').occupations?.[0]).toBe('53-7062.00');
    expect(read('Caretaker for a secondary school in Celbridge').occupations?.[0]).toBe('37-2011.00');
    expect(read('Caretaker for the animals at our kennels').occupations?.[0]).toBe('39-2021.00');
    expect(read('ATC for high school outreach through our sports medicine clinic').occupations?.[0]).toBe('29-9091.00');
    expect(read('ATC for the regional airport tower, FAA certified').occupations?.[0]).toBe('53-2021.00');
    expect(read('Retail sales advisors, fashion store at Bluewater').occupations?.[0]).toBe('41-2031.00');
    expect(read('Debt Adviser – home-based anywhere in Wales').occupations?.[0]).toBe('13-2071.00');
    expect(read('Auto Sparky – heavy and light vehicle fleet work, Whyalla').occupations?.[0]).toBe('49-2096.00');
    // A foreman runs a crew, a journeyman is qualified (the word before or after the title), a headteacher runs the school.
    expect(read('Roofing foreman for commercial TPO/EPDM crews, KC metro').seniority).toEqual(['lead']);
    expect(read('need journeyman concrete finishers - commercial slabs + tilt-up').seniority).toEqual(['mid']);
    expect(read('Industrial Mechanic (Millwright) – Journeyperson, Thunder Bay Pulp Mill').seniority).toEqual(['mid']);
    expect(read('Headteacher for a one-form entry primary in Lincoln (UK)').seniority).toEqual(['director']);
    // A ship's Chief Mate is a rank of the trade, not the C-suite.
    expect(read('Chief Mate – Supramax bulkers, 4 months on / 3 off')).toMatchObject({ occupations: ['53-5021.00'] });
    expect(read('Chief Mate – Supramax bulkers, 4 months on / 3 off').seniority).toBeUndefined();
    expect(read('Chief Executive of a housing charity, Bristol').seniority).toEqual(['cxo']);
  });
});

describe('the occupation signal', () => {
  const profile = (code: string): PersonProfile =>
    ({ title: 'Hospital Pharmacist', occupation: { onet_code: code, title: occupations().byCode(code)!.title }, skills: [] }) as unknown as PersonProfile;
  const criteria = (c: Criteria) => {
    const parsed = parseCriteria(c);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    return parsed.criteria;
  };

  it('is full for the first wanted code, less for another wanted one, the same SOC occupation or broad occupation', () => {
    expect(occupationMatch('29-1051.00', ['29-1051.00'])).toBe(1);
    expect(occupationMatch('29-1051.00', ['29-1071.00', '29-1051.00'])).toBe(0.8);
    expect(occupationMatch('29-1141.01', ['29-1141.00'])).toBe(0.75);
    expect(occupationMatch('29-1122.00', ['29-1127.00'])).toBe(0.5);
    expect(occupationMatch('53-3032.00', ['29-1051.00'])).toBe(0);
  });

  it('explains itself in the breakdown', () => {
    const c = criteria({ occupations: ['29-1051.00'] });
    const entry = scoreProfile(profile('29-1051.00'), c).breakdown.find((b) => b.criterion === 'occupation')!;
    expect(entry).toMatchObject({ match: 1, reason: 'Hospital Pharmacist: occupation Pharmacists 29-1051' });
    expect(scoreProfile(profile('29-2052.00'), c).breakdown.find((b) => b.criterion === 'occupation')!.reason).toMatch(/not Pharmacists 29-1051$/);
    // A search without occupations does not count the signal.
    expect(scoreProfile(profile('29-1051.00'), criteria({ titles: ['Pharmacist'] })).breakdown.map((b) => b.criterion)).not.toContain('occupation');
  });

  it('derives the family from the first occupation when it maps to one', () => {
    expect(criteria({ occupations: ['15-1252'] })).toMatchObject({ occupations: ['15-1252.00'], family: 'software_engineering' });
    expect(criteria({ occupations: ['29-1051.00'] }).family).toBeUndefined();
    // A store manager (no family) whose second guess is a general and operations manager is no operations role.
    expect(criteria({ occupations: ['41-1011.00', '11-1021.00'] }).family).toBeUndefined();
    expect(criteria({ occupations: ['11-1021.00', '41-1011.00'] }).family).toBe('operations');
    const refused = parseCriteria({ occupations: ['99-9999.00'] });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.problems[0].message).toMatch(/unknown occupation "99-9999.00".*GET \/reference\/occupations/);
  });
});
