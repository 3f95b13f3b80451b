/**
 * A fixed list of a few thousand fictional companies, each with one reference industry.
 * Built at module load from word parts with a fixed seed, so it is identical on every run.
 */
import { INDUSTRIES } from '../reference/taxonomy';

export interface Company {
  name: string;
  industry: string;
}

/** Name endings per industry; '' means the brand alone ("Bluepeak"). */
const SUFFIXES: Record<string, string[]> = {
  Accounting: ['LLP', 'CPAs', 'Accounting', 'Advisory'],
  'Airlines & Aviation': ['Airlines', 'Air', 'Airways', 'Aviation'],
  'Alternative Dispute Resolution': ['Mediation', 'Dispute Resolution', 'Arbitration Group'],
  'Alternative Medicine': ['Wellness', 'Acupuncture', 'Holistic Health', 'Naturopathic Clinic'],
  Animation: ['Animation', 'Studios', 'Pictures', 'Motion'],
  'Apparel & Fashion': ['Apparel', 'Clothing Co.', 'Outfitters', 'Fashion', 'Threads'],
  'Architecture & Planning': ['Architects', 'Design Studio', 'Architecture', 'Planning Group'],
  'Artificial Intelligence': ['AI', 'Labs', 'Intelligence', 'Machines', 'Cognition'],
  'Arts & Crafts': ['Crafts', 'Art Supply', 'Makers', 'Studio'],
  Automotive: ['Motors', 'Automotive', 'Auto Group', 'Mobility'],
  'Aviation & Aerospace': ['Aerospace', 'Aero', 'Aviation', 'Flight Systems'],
  Banking: ['Bank', 'Savings Bank', 'Bancorp', 'Trust', 'Financial'],
  Biotechnology: ['Bio', 'Biosciences', 'Therapeutics', 'Genomics', 'Biologics'],
  'Broadcast Media': ['Broadcasting', 'Media', 'Radio', 'TV'],
  'Building Materials': ['Building Supply', 'Materials', 'Lumber', 'Concrete'],
  'Business Supplies & Equipment': ['Office Supply', 'Business Equipment', 'Supply Co.'],
  'Capital Markets': ['Capital', 'Securities', 'Markets', 'Trading'],
  Chemicals: ['Chemicals', 'Chemical', 'Materials', 'Polymers'],
  'Civic & Social Organization': ['Foundation', 'Association', 'Society', 'Alliance'],
  'Civil Engineering': ['Engineering', 'Engineers', 'Infrastructure', 'Consulting Engineers'],
  'Commercial Real Estate': ['Properties', 'Realty', 'Real Estate Partners', 'Commercial'],
  'Computer & Network Security': ['Security', 'Cyber', 'Defense', 'Shield', 'Secure'],
  'Computer Games': ['Games', 'Studios', 'Interactive', 'Entertainment'],
  'Computer Hardware': ['Computing', 'Devices', 'Hardware', 'Systems'],
  'Computer Networking': ['Networks', 'Networking', 'Connect', 'Systems'],
  Construction: ['Construction', 'Builders', 'Contracting', 'Building Group'],
  'Consumer Electronics': ['Electronics', 'Devices', 'Audio', 'Labs'],
  'Consumer Goods': ['Brands', 'Goods', 'Home', 'Consumer Products'],
  'Consumer Services': ['Services', 'Home Services', 'Care'],
  Cosmetics: ['Beauty', 'Cosmetics', 'Skincare', 'Botanicals'],
  Dairy: ['Dairy', 'Creamery', 'Farms', 'Dairy Cooperative'],
  'Defense & Space': ['Defense', 'Space Systems', 'Dynamics', 'Aerospace & Defense'],
  Design: ['Design', 'Studio', 'Design Co.', 'Creative'],
  'E-Commerce': ['Shop', 'Market', 'Commerce', 'Goods', 'Store', ''],
  'E-Learning': ['Learning', 'Academy', 'Education', 'Edu'],
  'Education Management': ['Education', 'Schools', 'Learning Group', 'Academies'],
  'Electrical & Electronic Manufacturing': ['Electric', 'Electronics', 'Power Systems', 'Circuits'],
  Entertainment: ['Entertainment', 'Studios', 'Live', 'Media'],
  'Environmental Services': ['Environmental', 'Waste Solutions', 'Recycling', 'Environmental Services'],
  'Events Services': ['Events', 'Event Co.', 'Productions', 'Experiences'],
  'Executive Office': ['Executive Office', 'Holdings', 'Family Office'],
  'Facilities Services': ['Facility Services', 'Facilities', 'Property Services', 'Maintenance'],
  Farming: ['Farms', 'Agriculture', 'Growers', 'Harvest'],
  'Financial Services': ['Financial', 'Finance', 'Pay', 'Capital', 'Money', 'Credit'],
  'Fine Art': ['Gallery', 'Fine Art', 'Art Advisory'],
  Fishery: ['Seafood', 'Fisheries', 'Fishing Co.'],
  'Food & Beverages': ['Foods', 'Beverages', 'Kitchen', 'Coffee', 'Brewing'],
  'Food Production': ['Foods', 'Food Co.', 'Provisions', 'Bakeries'],
  'Fund-Raising': ['Fundraising', 'Philanthropy Partners', 'Giving'],
  Furniture: ['Furniture', 'Home', 'Woodworks', 'Interiors'],
  'Gambling & Casinos': ['Casino', 'Gaming', 'Resorts', 'Entertainment'],
  'Glass & Ceramics': ['Glass', 'Ceramics', 'Glassworks', 'Tile'],
  'Government Administration': ['County', 'Municipal Services', 'Public Works', 'Authority'],
  'Government Relations': ['Public Affairs', 'Strategies', 'Government Relations'],
  'Graphic Design': ['Design', 'Creative', 'Studio', 'Graphics'],
  'Higher Education': ['University', 'College', 'Institute of Technology', 'State University'],
  'Hospital & Health Care': ['Health', 'Medical Center', 'Hospital', 'Health System', 'Healthcare', 'Clinic'],
  Hospitality: ['Hotels', 'Hospitality', 'Resorts', 'Inn'],
  'Human Resources': ['HR', 'People Solutions', 'Workforce', 'HR Partners'],
  'Import & Export': ['Trading', 'Imports', 'Global Trade', 'Exports'],
  'Individual & Family Services': ['Family Services', 'Community Services', 'Care Network', 'Home Care'],
  'Industrial Automation': ['Automation', 'Robotics', 'Controls', 'Industrial'],
  'Information Services': ['Information', 'Data', 'Insights', 'Research'],
  'Information Technology & Services': ['IT', 'Technologies', 'Solutions', 'Consulting', 'Systems', 'Digital'],
  Insurance: ['Insurance', 'Mutual', 'Assurance', 'Insurance Group', 'Underwriters'],
  'International Affairs': ['Institute', 'Council', 'Forum'],
  'International Trade & Development': ['Development', 'Trade Partners', 'Global'],
  Internet: ['', 'Labs', 'Online', 'Digital', 'Web', 'App'],
  'Investment Banking': ['Partners', 'Securities', 'Capital Advisors', '& Co.'],
  'Investment Management': ['Asset Management', 'Investments', 'Capital Management', 'Wealth Management'],
  Judiciary: ['County Court', 'District Court'],
  'Law Enforcement': ['Police Department', 'County Sheriff', 'Public Safety'],
  'Law Practice': ['LLP', 'Law', 'Law Group', 'Attorneys'],
  'Legal Services': ['Legal', 'Legal Services', 'Law Partners'],
  'Legislative Office': ['Legislative Services', 'Assembly Office'],
  Libraries: ['Public Library', 'Library'],
  'Logistics & Supply Chain': ['Logistics', 'Freight', 'Supply Chain', 'Shipping', 'Transport'],
  'Luxury Goods & Jewelry': ['Jewelers', 'Jewelry', 'Luxe', 'Atelier'],
  Machinery: ['Machinery', 'Machine Works', 'Equipment', 'Industries'],
  'Management Consulting': ['Consulting', 'Partners', 'Advisory', 'Group', 'Strategy'],
  Maritime: ['Maritime', 'Marine', 'Shipping', 'Ports'],
  'Market Research': ['Research', 'Insights', 'Analytics', 'Market Intelligence'],
  'Marketing & Advertising': ['Agency', 'Marketing', 'Media', 'Creative', 'Digital', 'Advertising'],
  'Mechanical & Industrial Engineering': ['Engineering', 'Industries', 'Manufacturing', 'Mechanical', 'Technologies'],
  'Media Production': ['Productions', 'Media', 'Films', 'Studios'],
  'Medical Devices': ['Medical', 'MedTech', 'Surgical', 'Devices', 'Diagnostics'],
  'Medical Practice': ['Medical Group', 'Physicians', 'Family Medicine', 'Clinic', 'Health Partners'],
  'Mental Health Care': ['Behavioral Health', 'Counseling', 'Mental Health', 'Wellness Center'],
  Military: ['Defense Services', 'Military Support', 'Veterans Services'],
  'Mining & Metals': ['Mining', 'Metals', 'Resources', 'Minerals', 'Steel'],
  'Motion Pictures & Film': ['Pictures', 'Films', 'Studios', 'Entertainment'],
  'Museums & Institutions': ['Museum', 'Museum of Science', 'Historical Society', 'Institute'],
  Music: ['Records', 'Music', 'Sound', 'Audio'],
  Nanotechnology: ['Nano', 'Nanotech', 'Nanosystems'],
  Newspapers: ['Gazette', 'Times', 'Herald', 'Tribune', 'Post'],
  'Non-Profit Organization Management': ['Foundation', 'Alliance', 'Trust', 'Fund', 'Coalition'],
  'Oil & Energy': ['Energy', 'Oil & Gas', 'Petroleum', 'Power', 'Resources'],
  'Online Media': ['Media', 'Daily', 'News', 'Digital', 'Network'],
  'Outsourcing & Offshoring': ['Global Services', 'Outsourcing', 'BPO', 'Solutions'],
  'Package & Freight Delivery': ['Express', 'Delivery', 'Courier', 'Parcel', 'Freight'],
  'Packaging & Containers': ['Packaging', 'Containers', 'Pack'],
  'Paper & Forest Products': ['Paper', 'Timber', 'Forest Products', 'Pulp & Paper'],
  'Performing Arts': ['Theatre', 'Ballet', 'Philharmonic', 'Performing Arts Center'],
  Pharmaceuticals: ['Pharma', 'Pharmaceuticals', 'Therapeutics', 'Laboratories'],
  Philanthropy: ['Foundation', 'Fund', 'Charitable Trust'],
  Photography: ['Photography', 'Photo', 'Imaging', 'Studios'],
  Plastics: ['Plastics', 'Polymers', 'Molding'],
  'Political Organization': ['Action Committee', 'Coalition', 'Caucus', 'Alliance'],
  'Primary & Secondary Education': ['School District', 'Academy', 'Elementary School', 'High School', 'Public Schools'],
  Printing: ['Printing', 'Press', 'Print', 'Graphics'],
  'Professional Training & Coaching': ['Coaching', 'Training', 'Leadership Institute', 'Academy'],
  'Program Development': ['Software', 'Dev', 'Code Labs', 'Solutions'],
  'Public Policy': ['Institute', 'Policy Center', 'Policy Institute'],
  'Public Relations & Communications': ['Communications', 'PR', 'Public Relations', 'Strategies'],
  'Public Safety': ['Emergency Services', 'Fire & Rescue', 'Public Safety'],
  Publishing: ['Publishing', 'Press', 'Books', 'Media'],
  'Railroad Manufacture': ['Rail', 'Railcar', 'Rail Systems'],
  Ranching: ['Ranch', 'Cattle Co.', 'Livestock'],
  'Real Estate': ['Realty', 'Properties', 'Real Estate', 'Homes', 'Residential'],
  'Recreational Facilities & Services': ['Recreation', 'Parks', 'Sports Club', 'Fitness Club', 'Golf Club'],
  'Religious Institutions': ['Church', 'Ministries', 'Community Church', 'Faith Center'],
  'Renewables & Environment': ['Solar', 'Wind', 'Renewables', 'Energy', 'Clean Power', 'Climate'],
  Research: ['Research', 'Research Institute', 'Labs', 'Science'],
  Restaurants: ['Kitchen', 'Grill', 'Hospitality Group', 'Restaurants', 'Eatery'],
  Retail: ['Stores', 'Retail', 'Market', 'Outfitters', 'Mercantile', 'Supply'],
  'Security & Investigations': ['Security', 'Protective Services', 'Investigations', 'Guard Services'],
  Semiconductors: ['Semiconductor', 'Silicon', 'Microsystems', 'Semi', 'Micro'],
  Shipbuilding: ['Shipyards', 'Shipbuilding', 'Marine Industries'],
  'Software Development': ['Software', 'Labs', 'Systems', 'Technologies', 'Cloud', 'Analytics', 'Data', 'Digital', 'Tech', 'Apps', 'Logic', 'Works', ''],
  'Sporting Goods': ['Sports', 'Outdoor', 'Athletics', 'Gear'],
  Sports: ['FC', 'Athletics', 'Sports', 'Sports Club'],
  'Staffing & Recruiting': ['Staffing', 'Talent', 'Recruiting', 'Search Partners', 'Workforce Solutions'],
  Supermarkets: ['Market', 'Grocers', 'Foods', 'Supermarkets', 'Fresh Market'],
  Telecommunications: ['Telecom', 'Communications', 'Mobile', 'Networks', 'Wireless', 'Fiber'],
  Textiles: ['Textiles', 'Mills', 'Fabrics', 'Weaving'],
  'Think Tanks': ['Institute', 'Center', 'Foundation', 'Policy Lab'],
  Tobacco: ['Tobacco', 'Leaf Co.'],
  'Translation & Localization': ['Translations', 'Localization', 'Language Services', 'Lingua'],
  'Transportation & Trucking': ['Trucking', 'Transport', 'Freight Lines', 'Transportation', 'Carriers'],
  'Travel & Tourism': ['Travel', 'Tours', 'Journeys', 'Vacations', 'Expeditions'],
  Utilities: ['Utilities', 'Power & Light', 'Water', 'Electric', 'Energy'],
  'Venture Capital & Private Equity': ['Ventures', 'Capital', 'Partners', 'Equity Partners', 'Growth'],
  Veterinary: ['Veterinary', 'Animal Hospital', 'Pet Care', 'Veterinary Clinic'],
  Warehousing: ['Warehousing', 'Distribution', 'Fulfillment', 'Storage'],
  'Wellness & Fitness': ['Fitness', 'Wellness', 'Yoga', 'Health Club', 'Athletics'],
  Wholesale: ['Wholesale', 'Distributors', 'Supply', 'Trading'],
  'Wine & Spirits': ['Vineyards', 'Winery', 'Distillery', 'Cellars', 'Spirits'],
  Wireless: ['Wireless', 'Mobile', 'Connect', 'Radio'],
  'Writing & Editing': ['Editorial', 'Content', 'Words', 'Writing Co.'],
};

/** Industries whose firms are usually named after partners ("Harrington & Cole LLP"). */
const PARTNER_FIRMS = new Set([
  'Accounting', 'Law Practice', 'Legal Services', 'Management Consulting', 'Investment Banking',
  'Investment Management', 'Architecture & Planning', 'Commercial Real Estate', 'Real Estate',
  'Public Relations & Communications', 'Alternative Dispute Resolution', 'Government Relations',
  'Civil Engineering', 'Staffing & Recruiting',
]);

/** Extra companies on top of the base count, so common industries have deep pools. */
const EXTRA_COMPANIES: Record<string, number> = {
  'Software Development': 450,
  'Information Technology & Services': 200,
  Internet: 110,
  'Financial Services': 160,
  'Hospital & Health Care': 170,
  Retail: 90,
  Banking: 60,
  Insurance: 50,
  Telecommunications: 50,
  'E-Commerce': 60,
  'Marketing & Advertising': 60,
  'Staffing & Recruiting': 50,
  'Law Practice': 50,
  Accounting: 45,
  'Logistics & Supply Chain': 60,
  Construction: 45,
  'Real Estate': 40,
  'Consumer Goods': 45,
  Automotive: 40,
  'Medical Devices': 35,
  Pharmaceuticals: 35,
  Biotechnology: 35,
  'Management Consulting': 45,
  'Mechanical & Industrial Engineering': 40,
  'Electrical & Electronic Manufacturing': 35,
  Semiconductors: 25,
  'Computer Games': 30,
  'Computer & Network Security': 35,
  'Artificial Intelligence': 35,
  'Medical Practice': 40,
  'Mental Health Care': 25,
  'Individual & Family Services': 20,
  'Higher Education': 30,
  'Investment Management': 30,
  'Venture Capital & Private Equity': 25,
  'Human Resources': 25,
  'Legal Services': 25,
  'Food & Beverages': 30,
  'Aviation & Aerospace': 25,
  'Defense & Space': 20,
  'Industrial Automation': 20,
  'Oil & Energy': 25,
  Utilities: 20,
  'Renewables & Environment': 25,
  Wholesale: 25,
  Warehousing: 15,
  'Transportation & Trucking': 25,
  Hospitality: 25,
  'Consumer Electronics': 25,
  'Computer Hardware': 20,
  Machinery: 20,
  Research: 20,
  'Market Research': 15,
  'Capital Markets': 20,
  'Investment Banking': 15,
  'Government Administration': 15,
  'Education Management': 15,
};
const BASE_COMPANIES = 10;

const BRAND_HEADS = [
  'North', 'South', 'East', 'West', 'Blue', 'Red', 'Green', 'Silver', 'Gold', 'Iron', 'Stone',
  'Bright', 'Clear', 'Swift', 'High', 'Deep', 'True', 'Ever', 'Oak', 'Pine', 'Cedar', 'Maple',
  'Birch', 'River', 'Lake', 'Sun', 'Star', 'Cloud', 'Harbor', 'Summit', 'Fox', 'Wolf', 'Bear',
  'Hawk', 'Falcon', 'Raven', 'Sky', 'Ocean', 'Coral', 'Amber', 'Jade', 'Copper', 'Cobalt',
  'Granite', 'Willow', 'Aspen', 'Sage', 'Frost', 'Storm', 'Bay', 'Wild', 'Broad', 'Long', 'Sand',
  'Snow', 'Glen', 'Ash', 'Crystal', 'Orchard', 'Meadow',
];
const BRAND_TAILS = [
  'wind', 'peak', 'field', 'stone', 'bridge', 'water', 'wood', 'light', 'point', 'gate', 'view',
  'crest', 'line', 'ridge', 'path', 'forge', 'brook', 'haven', 'leaf', 'spring', 'wave', 'rock',
  'mark', 'way', 'side', 'port', 'ford', 'dale', 'hill', 'vale', 'shore', 'well', 'star', 'fire',
];
const COINED = [
  'Veritas', 'Lumina', 'Axiom', 'Corvus', 'Nimbus', 'Vantage', 'Meridian', 'Zenith', 'Helix',
  'Vertex', 'Quanta', 'Aurora', 'Solace', 'Kinetic', 'Catalyst', 'Paragon', 'Pinnacle', 'Sterling',
  'Beacon', 'Keystone', 'Lattice', 'Tessera', 'Nexus', 'Strata', 'Verity', 'Polaris', 'Arbor',
  'Cascade', 'Ember', 'Halcyon', 'Onyx', 'Radiant', 'Sapphire', 'Tandem', 'Trellis', 'Vireo',
  'Zephyr', 'Atlas', 'Apex', 'Nova', 'Terra', 'Lumen', 'Orion', 'Sequoia', 'Acadia', 'Bellwether',
  'Calyx', 'Driftwood', 'Evergreen', 'Fathom', 'Ironclad', 'Juniper', 'Kestrel', 'Larkspur',
  'Mosaic', 'Northstar', 'Obsidian', 'Pioneer', 'Quarry', 'Rosewood', 'Sable', 'Tidewater',
  'Umbra', 'Vanguard', 'Wayfarer', 'Yarrow',
];
const FIRM_SURNAMES = [
  'Harrington', 'Whitfield', 'Caldwell', 'Prescott', 'Holloway', 'Ashford', 'Brennan', 'Delaney',
  'Fairbanks', 'Gallagher', 'Hastings', 'Kendall', 'Lockwood', 'Mercer', 'Pemberton', 'Radcliffe',
  'Sinclair', 'Thornton', 'Wainwright', 'Beckett', 'Carlisle', 'Donovan', 'Ellison', 'Fletcher',
  'Granger', 'Hollis', 'Langley', 'Monroe', 'Porter', 'Sutton', 'Whitaker', 'Winslow', 'Calloway',
  'Barrett', 'Chandler', 'Cole', 'Hale', 'Reed', 'Shaw', 'Vance',
];

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function buildCompanies(): Company[] {
  const rnd = mulberry32(0x5eed_c0de);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const brand = (): string => {
    if (rnd() < 0.25) return pick(COINED);
    const head = pick(BRAND_HEADS);
    let tail = pick(BRAND_TAILS);
    if (tail === head.toLowerCase()) tail = 'field';
    return head + tail;
  };
  const used = new Set<string>();
  const out: Company[] = [];
  for (const industry of INDUSTRIES) {
    const suffixes = SUFFIXES[industry] ?? ['Group', 'Holdings'];
    const want = BASE_COMPANIES + (EXTRA_COMPANIES[industry] ?? 0);
    const firm = PARTNER_FIRMS.has(industry);
    let made = 0;
    for (let attempt = 0; made < want && attempt < want * 50; attempt++) {
      const suffix = pick(suffixes);
      let name: string;
      if (firm && rnd() < 0.55) {
        const a = pick(FIRM_SURNAMES);
        let b = pick(FIRM_SURNAMES);
        if (b === a) b = 'Reed';
        if (suffix === '& Co.') name = `${a} & Co.`;
        else name = rnd() < 0.5 ? `${a} & ${b}${suffix === 'LLP' ? ' LLP' : ''}` : `${a} ${suffix}`;
      } else {
        const b = brand();
        name = suffix === '' ? b : suffix === '& Co.' ? `${b} & Co.` : `${b} ${suffix}`;
      }
      const key = name.toLowerCase();
      if (used.has(key)) continue;
      used.add(key);
      out.push({ name, industry });
      made++;
    }
  }
  return out;
}

export const COMPANIES: readonly Company[] = buildCompanies();

/** Indices into COMPANIES by industry name. */
export const COMPANIES_BY_INDUSTRY: ReadonlyMap<string, readonly number[]> = (() => {
  const m = new Map<string, number[]>();
  COMPANIES.forEach((c, i) => {
    const list = m.get(c.industry);
    if (list) list.push(i);
    else m.set(c.industry, [i]);
  });
  return m;
})();
