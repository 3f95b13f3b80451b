import { extractCriteria } from '../../src/briefs/reader';
import { parseCriteria } from '../../src/domain/criteria';

/** The places a brief is read as, resolved as a search would: "name (radius)". */
function placesRead(brief: string): string[] {
  const { criteria } = extractCriteria(brief);
  const parsed = parseCriteria({ titles: ['Anything'], ...criteria });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed));
  return (parsed.criteria.places ?? []).map((p) => (p.radius_km === null ? p.name : `${p.name} (${p.radius_km} km)`));
}

describe('the brief reader reads places anywhere', () => {
  it('reads towns beyond the old metros, and several of them', () => {
    expect(placesRead('Website designer in Leeds or Manchester, 5+ years, Figma and HTML/CSS')).toEqual([
      'Leeds, England, United Kingdom (40 km)',
      'Manchester, England, United Kingdom (40 km)',
    ]);
    expect(placesRead('Process engineer — Lyon, France')).toEqual(['Lyon, Auvergne-Rhône-Alpes, France (40 km)']);
    expect(placesRead('Warehouse manager, Calgary or Edmonton, Alberta')).toEqual(['Calgary, Alberta, Canada (40 km)', 'Edmonton, Alberta, Canada (40 km)']);
    // A district in brackets between two towns of a list; a short name in brackets is the town's, not a place abroad.
    expect(placesRead('Mid-market AE — Melbourne (Cremorne) or Sydney (Surry Hills), hybrid')).toHaveLength(2);
    expect(placesRead('Ops analyst — fleet & routing\n- Gqeberha (PE), hybrid')).toEqual(['Gqeberha, Eastern Cape, South Africa (40 km)']);
    // A long name misspelt, capitalised and standing alone.
    expect(placesRead('UI designer for a fintech app — Thesaloniki, 2 days a week in the office')[0]).toMatch(/^Thessaloníki/);
  });

  it('takes the most populous place of a name unless the text names its region or country', () => {
    expect(placesRead('Staff accountant in Birmingham')[0]).toMatch(/^Birmingham, England/);
    expect(placesRead('Staff accountant in Birmingham, AL')[0]).toMatch(/^Birmingham, Alabama/);
    expect(placesRead('Pharmacist — Portland, Maine (not Portland OR)')[0]).toMatch(/^Portland, Maine/);
    // UK-only bodies and checks say which Newcastle and which Halifax.
    expect(placesRead('SIA door supervisors for bars on the Quayside, Newcastle — Fri/Sat nights')[0]).toMatch(/^Newcastle upon Tyne, England/);
    expect(placesRead('Gas Safe boiler engineer – jobs within 20 miles of Halifax')[0]).toMatch(/^Halifax, England/);
    // US-only terms say which Alexandria: Virginia's, not Egypt's bigger one.
    expect(placesRead('HR generalist, Alexandria — 3 days on site; federal contractor, Secret clearance a plus')[0]).toMatch(/^Alexandria, Virginia/);
    expect(placesRead('HR generalist, Alexandria — 3 days on site')[0]).toEqual('Alexandria, Egypt (40 km)');
    expect(placesRead('Dairy herd manager near Hamilton (Waikato)')[0]).toMatch(/^Hamilton, Waikato Region, New Zealand/);
    // A city abroad wins over a bigger region only under its own name: GeoNames also calls Hong Kong "Victoria".
    expect(placesRead('Occupational therapist, regional Victoria')).toEqual(['Victoria, Australia']);
    // …but a region's name written as a town's is the town.
    expect(placesRead('Civil enforcement officers for the city council in Canterbury')[0]).toMatch(/^Canterbury, England/);
    expect(placesRead('Farm hands across Canterbury')).toEqual(['Canterbury, New Zealand']);
    // A namesake beside another town the brief names is the one meant; a smaller town abroad after a town is its county.
    expect(placesRead('Hearing aid audiologist for our Grantham and Boston (Lincs) stores')).toEqual([
      'Grantham, England, United Kingdom (40 km)',
      'Boston, England, United Kingdom (40 km)',
    ]);
    expect(placesRead('Landscape architect for a small practice in Taunton, Somerset')).toEqual(['Taunton, England, United Kingdom (40 km)']);
    // A place in a role's name is no place ("HSE Officer"), nor a role word in a place's name ("Rivers State").
    expect(placesRead('HSE Officer (oil & gas construction)\nLocation: Rivers State, with site rotations')).toEqual(['Rivers State, Nigeria']);
    // A region named only by its bearing is no foreign region: "East Midlands" is not Zimbabwe's Midlands.
    expect(placesRead('QA engineer, East Midlands')).toEqual([]);
    expect(placesRead('Accountant, the South East of England')).toEqual(['England, United Kingdom']);
    // Regions go by their own languages' names too.
    expect(placesRead('Controls engineer, Sachsen')).toEqual(['Saxony, Germany']);
    // A town or the area around it as an alternative: both; towns given as examples of the area to live in: the area.
    expect(placesRead('Senior product designer — Glasgow office, or remote from anywhere in the UK')).toEqual([
      'Glasgow, Scotland, United Kingdom (40 km)',
      'United Kingdom',
    ]);
    expect(placesRead('Web developer — office in Greystones, or work remotely from anywhere in Ireland')).toEqual([
      'Greystones, Leinster, Ireland (40 km)',
      'Ireland',
    ]);
    expect(placesRead('Financial analyst — anywhere in Hessen (Frankfurt, Wiesbaden, Darmstadt)')).toEqual(['Hesse, Germany']);
    expect(placesRead('Director of Operations — North Brabant (Tilburg, Breda), hybrid')).toEqual(['North Brabant, The Netherlands']);
    expect(placesRead('Head of Design, must be Sweden-based — the team is spread between Malmö, Umeå and Stockholm')).toEqual(['Sweden']);
    // A name among skills is a skill; "Maine" is the state, not Des Plaines.
    expect(placesRead('Senior backend engineer (Kotlin, Spring), fully remote, but you need to live in Germany')).toEqual(['Germany']);
    expect(placesRead('Contracts specialist, remote within Maine')).toEqual(['Maine, United States']);
    // Misspelt towns after a cue or before their region; "X city"; a town's own public places.
    expect(placesRead('Scrum master, must be commutable to sheffeild, 2 days in office')).toEqual(['Sheffield, England, United Kingdom (50 km)']);
    expect(placesRead('technical recruiter chatanooga tn, onsite 3 days/wk')).toEqual(['Chattanooga, Tennessee, United States (40 km)']);
    expect(placesRead('Payroll specialist, hybrid — reasonable commute to Limerick city needed')[0]).toMatch(/^Limerick, /);
    expect(placesRead('Research scientist — Québec City or Sherbrooke')).toHaveLength(2);
    expect(placesRead('ED nurse for Dunedin Hospital; ideally someone who has done time in the Christchurch hospitals')[0]).toMatch(/^Dunedin, /);
    // The area itself when asked across it or when the text says which; "oder" joins a list.
    expect(placesRead('ML engineer, remote anywhere in Mexico, Central time hours')).toEqual(['Mexico']);
    expect(placesRead('Ops manager — anywhere in Georgia (the state, not the country)')).toEqual(['Georgia, United States']);
    expect(placesRead('Produktentwickler, Rheinland-Pfalz oder Saarland')).toHaveLength(2);
    expect(placesRead('Sourcer, 6-month contract — anywhere in NZ')).toEqual(['New Zealand']);
    // A sister team's town is not the role's; a metro's town with a radius of its own is that town.
    expect(placesRead('Staff data engineer, Vilnius — our sister team in Berlin owns the warehouse')[0]).toMatch(/^Vilnius, /);
    expect(placesRead('Oncology CNS, infusion center — 20mi radius of Fort Lauderdale')).toEqual(['Fort Lauderdale, Florida, United States (32 km)']);
    expect(placesRead('Senior accountant, München — please only candidates within ~30 km')).toEqual(['Munich, Bavaria, Germany (30 km)']);
    // A radius phrase makes a town the role's; "DC on Brackmills" is a distribution centre; a head office is the company's.
    expect(placesRead('Reach & counterbalance FLT drivers, nights, DC on Brackmills — must live within 10 miles of Northampton')).toEqual([
      'Northampton, England, United Kingdom (16 km)',
    ]);
    expect(placesRead('Graduate QS for a fit-out contractor — site office in Sharjah (head office in Dubai)')[0]).toMatch(/^Sharjah, /);
    expect(placesRead('Medical coders, Chennai office (Guindy) or work from home anywhere in India')).toEqual(['Chennai, Tamil Nadu, India (40 km)', 'India']);
    // A metro's alias near the metro's city is the metro; a town of the metro farther out is itself.
    expect(extractCriteria('Cloud security engineer, Reston VA, TS/SCI').criteria.metro).toBe('washington-dc');
    expect(placesRead('CSM, mid-market book (~60 logos), Frisco TX')).toEqual(['Frisco, Texas, United States (40 km)']);
    expect(placesRead('SRE II: k8s + prometheus/grafana, SLOs — Alpharetta')).toEqual(['Alpharetta, Georgia, United States (40 km)']);
    expect(placesRead('People Ops specialist — Waterloo, ON (Uptown office), hybrid')).toEqual(['Waterloo, Ontario, Canada (40 km)']);
    // …and the company's metro named beside it does not swallow it.
    expect(placesRead('Site reliability engineer — Boulder. HQ is in Denver, but the team works out of our Boulder office')).toEqual([
      'Boulder, Colorado, United States (40 km)',
    ]);
    // A big city's district is not a small namesake abroad, nor a district named "<name> City" a small town.
    expect(extractCriteria('Registered Nurse – Perioperative\nMelbourne – large public hospital in Parkville').criteria.metro).toBe('melbourne');
    expect(extractCriteria('Cloud security engineer, TS/SCI — Arlington, VA, 4 days at the Crystal City office').criteria.metro).toBe('washington-dc');
    // A metro's alias that names a whole region much bigger than it is that region.
    expect(placesRead('Graduate registered nurses — must live in NSW')).toEqual(['New South Wales, Australia']);
    expect(extractCriteria('Backend engineer, Delhi').criteria.metro).toBe('delhi-ncr');
    // Short misspellings and other spellings of big cities where a place stands; never a word ("Pairs well").
    expect(extractCriteria('Lead Product Designer, fintech — Londn (Shoreditch), 3 days in office').criteria.places?.[0]).toMatchObject({
      id: 'geonames:2643743',
    });
    expect(extractCriteria('graduate mechanical engineer for our HVAC/MEP design team, Mumbia').criteria.metro).toBe('mumbai');
    expect(extractCriteria('Engineer, Pairs well with a product mindset').criteria.metro).toBeUndefined();
    // Part of another proper name, a colleague's town, continents, the whole world: no role's place.
    expect(extractCriteria('head of data science, São Paulo (Faria Lima office), reports to the CEO who sits in Mexico City').criteria.metro).toBe('sao-paulo');
    expect(extractCriteria('Privacy counsel, US + EU programs, SF — our DPO sits in Dublin').criteria.metro).toBe('san-francisco-bay-area');
    expect(extractCriteria('Logistics coordinator – Bogotá - inbound containers from Asia via Cartagena').criteria.metro).toBe('bogota');
    expect(placesRead("RevOps analyst — fully remote, anywhere in the world; we're HQ'd in Austin")).toEqual([]);
    // A qualifier in parentheses is all they hold; a town named as the role's beats its region repeated as the market.
    expect(extractCriteria('Senior PM\n- Dubai (Dubai Internet City), full time on site\n- the rest of the team is in Cairo').criteria.metro).toBe('dubai');
    expect(
      extractCriteria('VP of Operations — San Antonio, TX\n\nWe care for patients across Texas. The Texas business is run from San Antonio.').criteria.metro,
    ).toBe('san-antonio');
    expect(placesRead('Pipe welders, 6G — travel across Texas, home base Houston yard')).toEqual(['Texas, United States']);
    // German cues and spellings; a district's generic name is no city; a committee's meeting town is not the role's.
    expect(placesRead('Corporate Counsel (m/w/d), Standort Wien — Konzernzentrale in München')[0]).toMatch(/^Vienna, /);
    expect(placesRead('Engineer, Koeln')[0]).toMatch(/^Köln, /);
    expect(placesRead('HR generalist, Alexandria — 3 days on site in Old Town')[0]).toMatch(/^Alexandria, /);
    expect(placesRead('Credit analyst — Córdoba, Argentina. Credit committee meets in Buenos Aires, monthly trips')[0]).toMatch(/^Córdoba, /);
    // A name written again without its qualifier is the place it named first.
    expect(placesRead('Greenville, SC — manufacturing engineer; you need to live within 20 miles of Greenville')).toEqual([
      'Greenville, South Carolina, United States (32 km)',
    ]);
    // The old metro keeps its own reading and radius.
    expect(extractCriteria('Backend engineer in Portland, OR').criteria).toMatchObject({ metro: 'portland' });
  });

  it('reads radius phrases in miles and km, and a commuting radius', () => {
    expect(placesRead('Skördarförare sökes, boende inom 80 km från Umeå')).toEqual(['Umeå, Västerbotten, Sweden (80 km)']);
    // Other languages' words and places' foreign names: "para" is no Belém, "Flughafen Nürnberg" is Nuremberg.
    expect(placesRead('Entrenador/a de fútbol base para infantil, escuela de fútbol en Alicante')[0]).toMatch(/^Alicante/);
    expect(placesRead('Flugzeugbetanker (m/w/d) am Flughafen Nürnberg – Schichtdienst')[0]).toMatch(/^Nuremberg/);
    expect(placesRead('Civil engineer within 30 miles of Albuquerque, NM')).toEqual(['Albuquerque, New Mexico, United States (48 km)']);
    expect(placesRead('Electrician, up to 50 km from Lyon')).toEqual(['Lyon, Auvergne-Rhône-Alpes, France (50 km)']);
    expect(placesRead('Bookkeeper, commutable to Cardiff')).toEqual(['Cardiff, Wales, United Kingdom (50 km)']);
    expect(placesRead('DevOps engineer - Reading or Oxford office - within 30 miles of either')).toEqual([
      'Reading, England, United Kingdom (48 km)',
      'Oxford, England, United Kingdom (48 km)',
    ]);
    // A metro with a radius asked is its city with that radius.
    expect(placesRead('Payroll specialist within 10 km of Denver')).toEqual(['Denver, Colorado, United States (10 km)']);
    // A radius written in the place's own language.
    expect(placesRead('UX designer — Porto Alegre/RS ou raio de 30 km, híbrido')).toEqual(['Porto Alegre, Rio Grande do Sul, Brazil (30 km)']);
    expect(placesRead('Java-Entwickler, im Umkreis von 25 km um Stuttgart')).toEqual(['Stuttgart, Baden-Wurttemberg, Germany (25 km)']);
  });

  it('reads regions, countries and remote roles', () => {
    // A town, "or otherwise anywhere in" its region: both.
    expect(placesRead('Scrum Master (m/w/d) — Linz oder sonst in Oberösterreich, 2 Tage Homeoffice')).toEqual([
      'Linz, Upper Austria, Austria (40 km)',
      'Upper Austria, Austria',
    ]);
    expect(placesRead('Site supervisor, anywhere in Bavaria')).toEqual(['Bavaria, Germany']);
    expect(placesRead('Support engineer — Bristol / remote UK')).toEqual(['Bristol, England, United Kingdom (40 km)', 'United Kingdom']);
    expect(placesRead('Recruiter, remote (Ireland); our HQ is in London')).toEqual(['Ireland']);
    // The town is kept beside the area whatever abbreviations stand between them.
    expect(placesRead('AP specialist — Regina, Sask., or remote anywhere in Saskatchewan')).toEqual([
      'Regina, Saskatchewan, Canada (40 km)',
      'Saskatchewan, Canada',
    ]);
    expect(placesRead('Contracts Specialist — Portland, Maine (hybrid) or remote within Maine')).toEqual([
      'Portland, Maine, United States (40 km)',
      'Maine, United States',
    ]);
  });

  it("keeps the company's places apart from the role's", () => {
    // A place the role only visits (a trade fair), or that the text reckons from, is not the role's; a base is the role's.
    expect(placesRead('Buyer for a store group. Trade fairs in Melbourne and Sydney twice a year. Based at our Launceston store')).toEqual([
      'Launceston, Tasmania, Australia (40 km)',
    ]);
    expect(placesRead('Pursers for our Muscat base – must be a current purser with a Gulf, Asian or European carrier')[0]).toMatch(/^Muscat/);
    // A brand among brands in brackets is no place; who may apply names the country when nothing else does.
    expect(placesRead('Small engine mechanic – ride-ons (Stihl, Husqvarna, Honda). Must live near the depot')).toEqual([]);
    expect(placesRead('Head of Product — must be Swiss-resident (offices in Basel and Bern, no relocation)')).toHaveLength(2);
    expect(placesRead('Senior florist – 5 outlets, rotated islandwide. Singaporeans / PRs only')).toEqual(['Singapore']);
    expect(placesRead('Chef for Chinese cuisine, must be a Canadian citizen')).toEqual(['Canada']);
    // A place written before a bracket ("in Leamington Spa (22 people)") is closely cued.
    expect(placesRead('Design Director for our studio in Leamington Spa (22 people); clients are London-based')[0]).toMatch(/^Royal Leamington Spa/);
    // A licence's place is no place of work; a town typed in lower case after a sentence stands alone; umlauts written out.
    expect(placesRead('RN — Anchorage, Alaska. An active Alaska RN license, or an Alaska application. Alaska winters are long.')).toEqual([
      'Anchorage, Alaska, United States (40 km)',
    ]);
    expect(placesRead('cloud engineer - azure mostly, bit of aws. hobart, tassie. hybrid 2 days')[0]).toMatch(/^Hobart/);
    expect(placesRead('Customer support specialist (DE/EN), Duesseldorf Hafen office')[0]).toMatch(/^Düsseldorf/);
    // A town 40 km from a bigger one is its own ("Worcester … Birmingham"); a district in brackets is the town's.
    expect(placesRead('Consultant Neurologist – Worcester. Easy commute from Kidderminster or Birmingham')[0]).toMatch(/^Worcester, England/);
    expect(placesRead('ETL developer — Kolkata (Salt Lake Sector V)')).toEqual(['Kolkata, West Bengal, India (40 km)']);
    expect(placesRead('Controls engineer — Reynosa, Tamps., day shift')).toEqual(['Reynosa, Tamaulipas, Mexico (40 km)']);
    expect(placesRead('Project coordinator for a med-device maker, Athlone, with the odd day at our Sligo plant')).toEqual([
      'Athlone, Leinster, Ireland (40 km)',
    ]);
    expect(placesRead('Emergency physician, Bundaberg Hospital. Bundaberg is about four hours north of Brisbane.')[0]).toMatch(/^Bundaberg/);
    expect(placesRead('Headquartered in Hamburg, we are hiring a warehouse manager based in Leipzig.')).toEqual(['Leipzig, Saxony, Germany (40 km)']);
    expect(placesRead('Head of Product — Kyoto, business-level Japanese. Our biggest customer is in Nagoya, so expect regular visits')).toEqual([
      'Kyoto, Japan (40 km)',
    ]);
    expect(placesRead('Customer Success Manager in Nagoya')).toEqual(['Nagoya, Aichi, Japan (40 km)']);
    // Where candidates relocate from is not the role's place.
    expect(placesRead("Ops analyst — Durban, hybrid. We'll help with relocation from East London or Cape Town")).toEqual([
      'Durban, KwaZulu-Natal, South Africa (40 km)',
    ]);
  });

  it('needs evidence for names that are also words or names, and ignores compounds', () => {
    expect(placesRead('Teacher with strong reading skills; builds Mobile apps; reports to Florence')).toEqual([]);
    expect(placesRead('Warehouse supervisor in Reading, UK')).toEqual(['Reading, England, United Kingdom (40 km)']);
    expect(placesRead('Allen-Bradley PLC programmer in Cleveland')[0]).toMatch(/^Cleveland, Ohio/);
    expect(placesRead('registered nurse in leeds, nights')).toEqual(['Leeds, England, United Kingdom (40 km)']);
    // A town's district after a hyphen, where a place stands, is the town; a brand is no place.
    expect(placesRead('Tax accountant, Kanzlei in Köln-Ehrenfeld, 32–40 h/Woche')).toEqual(['Köln, North Rhine-Westphalia, Germany (40 km)']);
    expect(placesRead('Controls engineer: Mercedes-Benz, Allen-Bradley, Rockwell')).toEqual([]);
    // A city's CBD is the city.
    expect(placesRead('nurse educator, Brisbane CBD, 3 days in')).toEqual(['Brisbane, Queensland, Australia (40 km)']);
    // A district named by a small foreign town's alternate name is the brief's own place (Gulshan is also Tabas, Iran).
    expect(placesRead('Sourcing specialist (knitwear) — Dhaka, Gulshan office')).toEqual(['Dhaka, Dhaka Division, Bangladesh (40 km)']);
    // Days of the week are no places (Mon is a state of Myanmar); a greeting is no part of a name.
    expect(placesRead('CMA or RMA – pediatric clinic with offices in Kennewick and Pasco – Mon–Fri 8–5, no weekends')).toEqual([
      'Kennewick, Washington, United States (40 km)',
      'Pasco, Washington, United States (40 km)',
    ]);
    expect(placesRead('Hey Moose Jaw! Our salon on Main St is looking for a licensed stylist')).toEqual(['Moose Jaw, Saskatchewan, Canada (40 km)']);
    // A misspelt town before its state is the state's town; a county named after a town is not the town.
    expect(
      placesRead('HVAC Install Tech – residential changeouts – Pensecola FL – within 35 miles of the shop (we cover Escambia & Santa Rosa counties)'),
    ).toEqual(['Pensacola, Florida, United States (56 km)']);
    // A wanted credential is no state code ("PE preferred" is a Professional Engineer, not Prince Edward Island).
    expect(placesRead('HVAC engineer for an MEP consultancy, Revit, PE preferred, Sacramento')).toEqual(['Sacramento, California, United States (40 km)']);
    // Recruiters' shorthand for an old metro's city.
    expect(placesRead('DE with spark + delta lake, 5+ yrs — Hyd (Gachibowli), WFO 3 days')).toEqual(['Hyderabad, Telangana, India (40 km)']);
    expect(placesRead('streaming pipelines in Flink + Kafka — Sthlm')).toEqual(['Stockholm, Sweden (40 km)']);
    expect(placesRead("L1 SOC analyst, QRadar, freshers ok — B'lore (Whitefield)")).toEqual(['Bengaluru, Karnataka, India (40 km)']);
    // Another name that is only a near spelling of a city's own one stands as that city, as a misspelling would.
    expect(placesRead('Demand planner (SAP IBP) — Zaragosa')).toEqual(['Zaragoza, Aragon, Spain (40 km)']);
    // An Irish town GeoNames names in Irish (Cluain Meala) is read by its English name.
    expect(placesRead('Retained Firefighters – Clonmel Fire Station, Co. Tipperary')).toEqual(['Cluain Meala, Munster, Ireland (40 km)']);
  });
});
